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
    $(find "$root/Sources/DiagModel" -name '*.swift') -o "$out/libDiagModel.a"
# CICU, the loader of ICU's regex C API that DiagPredicate imports (MATCHES patterns left to ICU).
mkdir -p "$out/CICU"
printf 'module CICU {\n    header "%s"\n    export *\n}\n' "$(cd "$root/Sources/CICU/include" && pwd)/CICU.h" > "$out/CICU/module.modulemap"
clang -O1 -g -fsanitize=fuzzer-no-link,address -I "$root/Sources/CICU/include" -c "$root/Sources/CICU/loader.c" -o "$out/cicu-loader.o"
swiftc "${flags[@]}" -emit-library -static -module-name DiagPredicate -emit-module-path "$out/DiagPredicate.swiftmodule" \
    -I "$out" -I "$out/CICU" $(find "$root/Sources/DiagPredicate" -name '*.swift') -o "$out/libDiagPredicate.a"
# lld: gold floods the output with harmless "cannot export local symbol" warnings for ASan.
swiftc "${flags[@]}" -use-ld=lld -I "$out" -I "$out/CICU" PredicateFuzzer.swift "$out/libDiagPredicate.a" "$out/libDiagModel.a" "$out/cicu-loader.o" -ldl -lm \
    -o "$out/predicate-fuzzer"
echo "built $(pwd)/$out/predicate-fuzzer"
