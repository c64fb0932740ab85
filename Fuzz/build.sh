#!/bin/bash
# Builds Fuzz/build/predicate-fuzzer: libFuzzer + AddressSanitizer over the DiagModel and
# DiagPredicate sources, each compiled as its own module as SwiftPM would (Fuzz/lib.sh).
cd "$(dirname "$0")"
source ./lib.sh
fuzz_module DiagModel
# CICU, the loader of ICU's regex C API that DiagPredicate imports (MATCHES patterns left to ICU).
fuzz_c_module CICU
fuzz_module DiagPredicate -I "$fuzz_out/CICU"
fuzz_link predicate-fuzzer -I "$fuzz_out/CICU" PredicateFuzzer.swift "$fuzz_out/libDiagPredicate.a" "$fuzz_out/libDiagModel.a" \
    "$fuzz_out/CICU.o" -ldl -lm
