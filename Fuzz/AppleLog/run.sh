#!/bin/bash
# Runs the Apple unified logging fuzzer for SECONDS (default 60) on Fuzz/AppleLog/corpus, building
# it if needed. New interesting inputs go to Fuzz/AppleLog/build/corpus; a crash or a hang (over
# 10 s) stops the run with a non-zero status and leaves the input as build/crash-* or timeout-*.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
if [ ! -x build/applelog-fuzzer ] || [ -n "$(find ../../Sources/DiagAppleLog ../../Sources/DiagModel AppleLogFuzzer.swift -newer build/applelog-fuzzer -print -quit)" ]; then
    ./build.sh
fi
mkdir -p build/corpus
# swift-backtrace can hang after a crash instead of exiting; libFuzzer reports crashes itself.
export SWIFT_BACKTRACE=enable=no
exec build/applelog-fuzzer build/corpus corpus -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -artifact_prefix=build/ -print_final_stats=1
