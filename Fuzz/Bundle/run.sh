#!/bin/bash
# Runs the bundle fuzzer for SECONDS (default 60) on Fuzz/Bundle/corpus, building it if needed.
# The seeds are the archives `python3 Benchmarks/hostile_bundles.py corpus --small` writes, one
# per hostile case of issue 13 (path traversal, links, a device, a FIFO, duplicate and unlisted
# entries, an oversize entry, an oversize manifest, chunks with a trigger or a view, a version-1
# chunk, control bytes in names, a long Info.json) and a good small bundle; left out are
# random-bytes (no seed) and many-chunks-info (700 KB). New inputs go to build/corpus.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
if [ ! -x build/bundle-fuzzer ] || [ -n "$(find ../../Sources/DiagBundle ../../Sources/DiagStore ../../Sources/DiagModel ../../Sources/CArchive BundleFuzzer.swift -newer build/bundle-fuzzer -print -quit)" ]; then
    ./build.sh
fi
mkdir -p build/corpus
# swift-backtrace can hang after a crash instead of exiting; libFuzzer reports crashes itself.
export SWIFT_BACKTRACE=enable=no
# Each input is unpacked into a cache and its chunks opened and copied: in memory (/dev/shm)
# where there is one (5 inputs a second against 3 on disk, on a loaded machine); removed afterwards.
scratch=$(mktemp -d /dev/shm/diag-bundle-fuzzer.XXXXXX 2>/dev/null || mktemp -d)
trap 'rm -rf "$scratch"' EXIT
TMPDIR=$scratch build/bundle-fuzzer build/corpus corpus -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
    -max_len=65536 -artifact_prefix=build/ -print_final_stats=1
