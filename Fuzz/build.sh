#!/bin/bash
# Builds Fuzz/build/predicate-fuzzer: libFuzzer + AddressSanitizer over the DiagModel and
# DiagPredicate sources, each compiled as its own module as SwiftPM would.
set -euo pipefail
cd "$(dirname "$0")"
root=..
out=build
mkdir -p "$out"
flags=(-O -g -parse-as-library -sanitize=fuzzer,address -swift-version 6)
swiftc "${flags[@]}" -emit-library -static -module-name DiagModel -emit-module-path "$out/DiagModel.swiftmodule" \
    "$root"/Sources/DiagModel/*.swift -o "$out/libDiagModel.a"
swiftc "${flags[@]}" -emit-library -static -module-name DiagPredicate -emit-module-path "$out/DiagPredicate.swiftmodule" \
    -I "$out" "$root"/Sources/DiagPredicate/*.swift -o "$out/libDiagPredicate.a"
# lld: gold floods the output with harmless "cannot export local symbol" warnings for ASan.
swiftc "${flags[@]}" -use-ld=lld -I "$out" PredicateFuzzer.swift "$out/libDiagPredicate.a" "$out/libDiagModel.a" -lm \
    -o "$out/predicate-fuzzer"
echo "built $(pwd)/$out/predicate-fuzzer"
