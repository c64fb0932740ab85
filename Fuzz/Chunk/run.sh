#!/bin/bash
# Runs the chunk fuzzer for SECONDS (default 60) on Fuzz/Chunk/corpus, building it if needed
# (Fuzz/lib.sh, fuzz_run). The seeds are chunk files as a bundle carries them: a current chunk, a
# version-1 chunk and chunks with a trigger and with a view (which must be refused).
cd "$(dirname "$0")"
source ../lib.sh
fuzz_run chunk-fuzzer "${1:-60}" "../../Sources/DiagStore ../../Sources/CSQLiteAlloc ../../Sources/DiagModel ChunkFuzzer.swift" -max_len=65536
