#!/bin/bash
# Builds Fuzz/AppleLog/build/applelog-fuzzer: libFuzzer + AddressSanitizer over the DiagModel and
# DiagAppleLog sources, each compiled as its own module as SwiftPM would (Fuzz/lib.sh).
cd "$(dirname "$0")"
source ../lib.sh
fuzz_module DiagModel
fuzz_module DiagAppleLog
fuzz_link applelog-fuzzer AppleLogFuzzer.swift "$fuzz_out/libDiagAppleLog.a" "$fuzz_out/libDiagModel.a" -lm
