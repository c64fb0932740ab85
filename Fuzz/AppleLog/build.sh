#!/bin/bash
# Builds Fuzz/AppleLog/build/applelog-fuzzer: libFuzzer + AddressSanitizer over the DiagModel and
# DiagAppleLog sources, each compiled as its own module as SwiftPM would.
set -euo pipefail
cd "$(dirname "$0")"
root=../..
out=build
mkdir -p "$out"
flags=(-O -g -parse-as-library -sanitize=fuzzer,address -swift-version 6)
swiftc "${flags[@]}" -emit-library -static -module-name DiagModel -emit-module-path "$out/DiagModel.swiftmodule" \
    $(find "$root/Sources/DiagModel" -name '*.swift') -o "$out/libDiagModel.a"
swiftc "${flags[@]}" -emit-library -static -module-name DiagAppleLog -emit-module-path "$out/DiagAppleLog.swiftmodule" \
    -I "$out" $(find "$root/Sources/DiagAppleLog" -name '*.swift') -o "$out/libDiagAppleLog.a"
swiftc "${flags[@]}" -use-ld=lld -I "$out" AppleLogFuzzer.swift "$out/libDiagAppleLog.a" "$out/libDiagModel.a" -lm \
    -o "$out/applelog-fuzzer"
echo "built $(pwd)/$out/applelog-fuzzer"
