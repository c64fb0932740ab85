#!/bin/bash
# Builds Fuzz/Chunk/build/chunk-fuzzer: libFuzzer + AddressSanitizer over the DiagModel and
# DiagStore sources, each compiled as its own module as SwiftPM would (SQLite is the system's;
# Fuzz/lib.sh).
cd "$(dirname "$0")"
source ../lib.sh
fuzz_c_module CSQLiteAlloc
fuzz_module DiagModel
fuzz_module DiagStore -I "$fuzz_root/Sources/CSQLite" -I "$fuzz_out/CSQLiteAlloc"
fuzz_link chunk-fuzzer -I "$fuzz_root/Sources/CSQLite" -I "$fuzz_out/CSQLiteAlloc" ChunkFuzzer.swift "$fuzz_out/libDiagStore.a" \
    "$fuzz_out/libDiagModel.a" "$fuzz_out/CSQLiteAlloc.o" -lsqlite3 -lm
