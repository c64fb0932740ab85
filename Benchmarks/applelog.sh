#!/bin/sh
# Reading Apple's unified logs, in records per second, beside its reference in one run (not a test):
#   diag show of an Apple .logarchive (tracev3 files: LZ4 chunk sets, catalogs, firehose parsing,
#   message rendering, timesync) vs diag show of the same records after `diag import` into a store.
# The archive is the vendored 717 KB sample (8,654 records) copied COPIES times into Persist/, as
# a device's archive holds many files; both commands print ndjson to /dev/null with --info --debug.
# Usage: Benchmarks/applelog.sh [copies, default 40] (needs the release diag: swift build -c release)
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
copies=${1:-40}
diag="$repo/.build/release/diag"
[ -x "$diag" ] || { echo "build the release diag first: swift build -c release --product diag" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
archive="$work/device.logarchive"
mkdir -p "$archive/Persist" "$archive/timesync"
printf '<?xml version="1.0"?><plist version="1.0"><dict/></plist>\n' >"$archive/Info.plist"
cp "$repo/Tests/Fixtures/apple-unified-logging/timesync/"*.timesync "$archive/timesync/"
i=1
while [ "$i" -le "$copies" ]; do
    cp "$repo/Tests/Fixtures/apple-unified-logging/0000000000000f85.tracev3" "$archive/Persist/$(printf '%016x' "$i").tracev3"
    i=$((i + 1))
done
"$diag" import --store "$work/store" "$archive" >/dev/null
records=$("$diag" show "$archive" --info --debug --style ndjson | wc -l)
stored=$("$diag" show "$work/store" --info --debug --style ndjson | wc -l)
[ "$records" = "$stored" ] || { echo "the store gives $stored records, the archive $records" >&2; exit 1; }
# Best of three runs each, alternating, so that a noisy neighbour does not favour one side.
seconds() { start=$(date +%s.%N); "$diag" show "$1" --info --debug --style ndjson >/dev/null; end=$(date +%s.%N); awk "BEGIN { print $end - $start }"; }
best_archive=999999; best_store=999999
for run in 1 2 3; do
    t=$(seconds "$archive"); best_archive=$(awk "BEGIN { print ($t < $best_archive) ? $t : $best_archive }")
    t=$(seconds "$work/store"); best_store=$(awk "BEGIN { print ($t < $best_store) ? $t : $best_store }")
done
awk -v copies="$copies" -v records="$records" -v a="$best_archive" -v s="$best_store" -v mb="$(du -sk "$archive/Persist" | cut -f1)" 'BEGIN {
    printf "Apple log archive: %d tracev3 files, %d records (%.1f MB of tracev3)\n", copies, records, mb / 1024
    printf "  diag show ARCHIVE (tracev3)  %10.0f records/s  (%.2f s)\n", records / a, a
    printf "  diag show STORE (imported)   %10.0f records/s  (%.2f s)   reference\n", records / s, s
    printf "  ratio tracev3 / store: %.2f\n", s / a
}'
