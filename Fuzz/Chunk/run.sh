#!/bin/bash
# Runs the chunk fuzzer for SECONDS (default 60) on Fuzz/Chunk/corpus, building it if needed.
# The seeds are chunk files as a bundle carries them: a current chunk, a version-1 chunk and
# chunks with a trigger and with a view (which must be refused); new inputs go to build/corpus.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
if [ ! -x build/chunk-fuzzer ] || [ -n "$(find ../../Sources/DiagStore ../../Sources/DiagModel ChunkFuzzer.swift -newer build/chunk-fuzzer -print -quit)" ]; then
    ./build.sh
fi
mkdir -p build/corpus
# swift-backtrace can hang after a crash instead of exiting; libFuzzer reports crashes itself.
export SWIFT_BACKTRACE=enable=no
exec build/chunk-fuzzer build/corpus corpus -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -artifact_prefix=build/ -print_final_stats=1
