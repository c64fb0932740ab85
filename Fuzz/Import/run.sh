#!/bin/bash
# Runs the import fuzzer for SECONDS (default 60) on Fuzz/Import/corpus, building it if needed
# (Fuzz/lib.sh, fuzz_run).
cd "$(dirname "$0")"
source ../lib.sh
fuzz_run import-fuzzer "${1:-60}" "../../Sources/DiagImport ../../Sources/DiagModel ImportFuzzer.swift" -max_len=8192
