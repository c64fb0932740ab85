#!/bin/bash
# Runs the bundle fuzzer for SECONDS (default 60) on Fuzz/Bundle/corpus, building it if needed
# (Fuzz/lib.sh, fuzz_run). The seeds are the archives `python3 Benchmarks/hostile_bundles.py
# corpus --small` writes, one per hostile case of issue 13 (path traversal, links, a device, a
# FIFO, duplicate and unlisted entries, an oversize entry, an oversize manifest, chunks with a
# trigger or a view, a version-1 chunk, control bytes in names, a long Info.json) and a good
# small bundle; left out are random-bytes (no seed) and many-chunks-info (700 KB).
cd "$(dirname "$0")"
source ../lib.sh
# Each input is unpacked into a cache and its chunks opened and copied: in memory (/dev/shm)
# where there is one (5 inputs a second against 3 on disk, on a loaded machine); removed afterwards.
scratch=$(mktemp -d /dev/shm/diag-bundle-fuzzer.XXXXXX 2>/dev/null || mktemp -d)
trap 'rm -rf "$scratch"' EXIT
TMPDIR=$scratch fuzz_run bundle-fuzzer "${1:-60}" \
    "../../Sources/DiagBundle ../../Sources/DiagStore ../../Sources/CSQLiteAlloc ../../Sources/DiagModel ../../Sources/CArchive BundleFuzzer.swift" \
    -timeout=20 -max_len=65536
