#!/bin/bash
# Runs the predicate fuzzer for SECONDS (default 60) on Fuzz/corpus, building it if needed
# (Fuzz/lib.sh, fuzz_run). `make fuzz` runs it for FUZZ_SECONDS; a long run: Fuzz/run.sh 28800.
cd "$(dirname "$0")"
source ./lib.sh
fuzz_run predicate-fuzzer "${1:-60}" "../Sources/DiagPredicate ../Sources/DiagModel ../Sources/CICU PredicateFuzzer.swift" \
    -dict=predicate.dict -max_len=4096
