#!/bin/bash
# Runs the Apple unified logging fuzzer for SECONDS (default 60) on Fuzz/AppleLog/corpus, building
# it if needed (Fuzz/lib.sh, fuzz_run).
cd "$(dirname "$0")"
source ../lib.sh
fuzz_run applelog-fuzzer "${1:-60}" "../../Sources/DiagAppleLog ../../Sources/DiagModel AppleLogFuzzer.swift" -max_len=65536
