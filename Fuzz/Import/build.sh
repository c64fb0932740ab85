#!/bin/bash
# Builds Fuzz/Import/build/import-fuzzer: libFuzzer + AddressSanitizer over the DiagModel and
# DiagImport sources, each compiled as its own module as SwiftPM would (Fuzz/lib.sh).
cd "$(dirname "$0")"
source ../lib.sh
fuzz_module DiagModel
fuzz_module DiagImport
fuzz_link import-fuzzer ImportFuzzer.swift "$fuzz_out/libDiagImport.a" "$fuzz_out/libDiagModel.a" -lm
