#!/bin/bash
# Runs the import fuzzer for SECONDS (default 60) on Fuzz/Import/corpus, building it if needed.
# New interesting inputs go to Fuzz/Import/build/corpus; a crash or a hang (over 10 s) stops the
# run with a non-zero status and leaves the input as Fuzz/Import/build/crash-* or timeout-*.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
if [ ! -x build/import-fuzzer ] || [ -n "$(find ../../Sources/DiagImport ../../Sources/DiagModel ImportFuzzer.swift -newer build/import-fuzzer -print -quit)" ]; then
    ./build.sh
fi
mkdir -p build/corpus
# swift-backtrace can hang after a crash instead of exiting; libFuzzer reports crashes itself.
export SWIFT_BACKTRACE=enable=no
exec build/import-fuzzer build/corpus corpus -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=8192 -artifact_prefix=build/ -print_final_stats=1
