#!/bin/sh
# diag collect of a large store beside a plain tar pipeline over the same files, in one run
# (not a test; the machine is shared, so compare the ratios, not the seconds):
#   diag collect --compression zstd   vs  tar -cf - STORE | zstd -T0
#   diag collect --compression gzip   vs  tar -cf - STORE | gzip
# Targets: diag collect within 1.3x of its tar pipeline; peak RSS under 128 MiB.
# Builds diag in release (only that product). Usage: Benchmarks/collect.sh [store size in MiB, default 1024]
# DIAG_BENCH_STORE=DIR keeps the generated store in DIR (and reuses it) instead of a temporary folder.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
size_mib=${1:-1024}
work=$(mktemp -d "${TMPDIR:-/var/tmp}/diag-collect-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

swift build -c release --package-path "$repo" --product diag >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
diag="$(swift build -c release --package-path "$repo" --show-bin-path)/diag"
store="${DIAG_BENCH_STORE:-$work/system_logs.logarchive}"

# Runs a command under /usr/bin/time -v; prints "seconds kilobytes".
measure() {
    /usr/bin/time -v "$@" >/dev/null 2>"$work/time" || { cat "$work/time"; exit 1; }
    awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i] }
                /Maximum resident set size/ { rss = $2 }
                END { printf "%.3f %d\n", s, rss }' "$work/time"
}

# Four components' records, 128 MiB of NDJSON at a time, imported until the store is big enough.
store_mib() { if [ -d "$store" ]; then du -sm "$store" | cut -f1; else echo 0; fi; }
batch=0
while [ "$(store_mib)" -lt "$size_mib" ]; do
    python3 - "$batch" >"$work/batch.ndjson" <<'PY'
import json, random, sys
batch = int(sys.argv[1])
random.seed(batch)
procs = ["synccore", "schedulerd", "transportd", "notifierd"]
# About what real logs hold: mostly Default and Info, some Debug, one Error in 100, one Fault in 1,000.
levels = ["Default"] * 600 + ["Info"] * 289 + ["Debug"] * 100 + ["Error"] * 10 + ["Fault"]
words = "zone record push fetch token retry backoff conflict merge upload download change batch server client cache".split()
base = 1795945200 * 10**9 + batch * 3600 * 10**9
out, written, i = sys.stdout, 0, 0
while written < 128 << 20:
    p = i % 4
    line = json.dumps({"timestampNanoseconds": base + i * 2_000_000, "messageType": levels[i * 7919 % 1000], "process": procs[p],
        "processID": 100 + p, "sender": "SyncKit", "subsystem": "com.example.sync." + procs[p], "category": "engine",
        "threadID": 1000 + i % 13, "metadata": {"storeIdentifier": "S-%d" % (i % 5)},
        "eventMessage": " ".join(random.choice(words) for _ in range(12)) + " id=%d zone=Z%d" % (i, i % 97)}) + "\n"
    out.write(line)
    written += len(line)
    i += 1
PY
    "$diag" import --store "$store" "$work/batch.ndjson" >/dev/null
    batch=$((batch + 1))
done
rm -f "$work/batch.ndjson"
size=$(store_mib)
cat "$store"/Persist/* >/dev/null  # every run starts from the page cache
mkdir -p "$work/out"

echo "Store: $size MiB in $(ls "$store/Persist" | grep -c 'chunk.sqlite$') chunks"
printf '%-34s %9s %14s %8s\n' "" "seconds" "peak RSS MiB" "ratio"
for compression in zstd gzip; do
    case $compression in
        zstd) pipeline="tar -cf - -C '$store' . | zstd -T0 -q -c > '$work/reference.tar.zst'" ;;
        gzip) pipeline="tar -cf - -C '$store' . | gzip -c > '$work/reference.tar.gz'" ;;
    esac
    set -- $(measure sh -c "$pipeline")
    reference_seconds=$1 reference_rss=$2
    set -- $(measure "$diag" collect --store "$store" --output "$work/out/" --compression "$compression")
    collect_seconds=$1 collect_rss=$2
    rm -f "$work"/out/* "$work"/reference.*
    printf '%-34s %9.2f %14.1f %8s\n' "tar | $compression" "$reference_seconds" "$(echo "$reference_rss / 1024" | bc -l)" "1.00"
    printf '%-34s %9.2f %14.1f %8.2f\n' "diag collect --compression $compression" "$collect_seconds" \
        "$(echo "$collect_rss / 1024" | bc -l)" "$(echo "$collect_seconds / $reference_seconds" | bc -l)"
done
echo "Targets: ratio <= 1.30, diag collect peak RSS < 128 MiB"
