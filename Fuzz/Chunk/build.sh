#!/bin/bash
# Builds Fuzz/Chunk/build/chunk-fuzzer: libFuzzer + AddressSanitizer over the DiagModel and
# DiagStore sources, each compiled as its own module as SwiftPM would (SQLite is the system's;
# Fuzz/lib.sh).
cd "$(dirname "$0")"
source ../lib.sh
fuzz_sqlite_alloc
fuzz_module DiagModel
fuzz_module DiagStore -I "$fuzz_root/Sources/CSQLite" "${fuzz_sqlite_alloc[@]}"
fuzz_link chunk-fuzzer -I "$fuzz_root/Sources/CSQLite" "${fuzz_sqlite_alloc[@]}" ChunkFuzzer.swift "$fuzz_out/libDiagStore.a" \
    "$fuzz_out/libDiagModel.a" "$fuzz_out/csqlite-alloc.o" -lsqlite3 -lm
