#!/bin/bash
# Runs the predicate fuzzer for SECONDS (default 60) on Fuzz/corpus, building it if needed.
# New interesting inputs go to Fuzz/build/corpus (the seed corpus stays as committed); a crash
# or a hang (an input taking over 10 s) stops the run with a non-zero status and leaves the
# input as Fuzz/build/crash-* or timeout-*.
#   make test runs:      Fuzz/run.sh 45
#   long run (overnight): Fuzz/run.sh 28800
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
if [ ! -x build/predicate-fuzzer ] || [ -n "$(find ../Sources/DiagPredicate ../Sources/DiagModel ../Sources/CICU PredicateFuzzer.swift -newer build/predicate-fuzzer -print -quit)" ]; then
    ./build.sh
fi
mkdir -p build/corpus
# swift-backtrace can hang after a crash instead of exiting; libFuzzer reports crashes itself.
export SWIFT_BACKTRACE=enable=no
exec build/predicate-fuzzer build/corpus corpus \
    -dict=predicate.dict -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=4096 -artifact_prefix=build/ -print_final_stats=1
