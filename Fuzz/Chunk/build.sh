#!/bin/bash
# Builds Fuzz/Chunk/build/chunk-fuzzer: libFuzzer + AddressSanitizer over the DiagModel and
# DiagStore sources, each compiled as its own module as SwiftPM would (SQLite is the system's).
set -euo pipefail
cd "$(dirname "$0")"
root=../..
out=build
mkdir -p "$out"
flags=(-O -g -parse-as-library -sanitize=fuzzer,address -swift-version 6)
swiftc "${flags[@]}" -emit-library -static -module-name DiagModel -emit-module-path "$out/DiagModel.swiftmodule" \
    $(find "$root/Sources/DiagModel" -name '*.swift') -o "$out/libDiagModel.a"
swiftc "${flags[@]}" -emit-library -static -module-name DiagStore -emit-module-path "$out/DiagStore.swiftmodule" \
    -I "$out" -I "$root/Sources/CSQLite" $(find "$root/Sources/DiagStore" -name '*.swift') -o "$out/libDiagStore.a"
swiftc "${flags[@]}" -use-ld=lld -I "$out" -I "$root/Sources/CSQLite" ChunkFuzzer.swift "$out/libDiagStore.a" "$out/libDiagModel.a" \
    -lsqlite3 -lm -o "$out/chunk-fuzzer"
echo "built $(pwd)/$out/chunk-fuzzer"
