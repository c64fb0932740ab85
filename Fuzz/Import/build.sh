#!/bin/bash
# Builds Fuzz/Import/build/import-fuzzer: libFuzzer + AddressSanitizer over the DiagModel and
# DiagImport sources, each compiled as its own module as SwiftPM would.
set -euo pipefail
cd "$(dirname "$0")"
root=../..
out=build
mkdir -p "$out"
flags=(-O -g -parse-as-library -sanitize=fuzzer,address -swift-version 6)
swiftc "${flags[@]}" -emit-library -static -module-name DiagModel -emit-module-path "$out/DiagModel.swiftmodule" \
    $(find "$root/Sources/DiagModel" -name '*.swift') -o "$out/libDiagModel.a"
swiftc "${flags[@]}" -emit-library -static -module-name DiagImport -emit-module-path "$out/DiagImport.swiftmodule" \
    -I "$out" $(find "$root/Sources/DiagImport" -name '*.swift') -o "$out/libDiagImport.a"
swiftc "${flags[@]}" -use-ld=lld -I "$out" ImportFuzzer.swift "$out/libDiagImport.a" "$out/libDiagModel.a" -lm \
    -o "$out/import-fuzzer"
echo "built $(pwd)/$out/import-fuzzer"
