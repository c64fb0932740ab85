#!/bin/bash
# Peak RSS and time of `diag show --style ndjson` with a `!=` predicate over a generated store
# (issue 13, item 6), into a file and through a slow pipe, beside the same scan without a
# predicate (the reference, read the same way), in one run:
#
#   1. diag show --info --debug --style ndjson STORE > file                       (reference)
#   2. the same with --predicate 'subsystem != "x"' > file     time ratio to 1: target ≤ 1.05
#   3. 2 through a pipe whose reader waits 5 s, then reads       peak RSS: target < 64 MiB
#   4. --style json with the predicate through the slow pipe     peak RSS: target < 64 MiB
#
# With BEFORE=/path/to/an/older/diag (the issue's "today's scan": a diag built from before
# item 6's change, 8f4de76^), 2 runs three times more with each binary in turn and the best of
# each is compared (target: after ≤ 1.05× before), and 3 runs with the older binary: its peak RSS.
# Needs: /usr/bin/time (apt-get install time).
# Usage: Benchmarks/ndjson-memory.sh [COUNT]   (default 2000000)
#   WORK=/some/dir keeps the store between runs; DIAG=/path/to/diag uses that binary.
# A benchmark, not a test: on a loaded machine the ratios mean more than the absolute times.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
count=${1:-2000000}
[ -x /usr/bin/time ] || { echo "ndjson-memory.sh needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
if [ -n "${WORK:-}" ]; then work=$WORK; mkdir -p "$work"; else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
if [ -n "${DIAG:-}" ]; then
    diag=$DIAG
else
    echo "building diag (release)…" >&2
    swift build -c release --product diag --package-path "$repo" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
    diag="$repo/.build/release/diag"
fi
store="$work/store-$count"
if [ ! -d "$store" ]; then
    echo "generating and importing $count records…" >&2
    "$diag" generate --count "$count" --seed 6 --output "$work/records.ndjson"
    "$diag" import --store "$store" "$work/records.ndjson" >/dev/null
    rm -f "$work/records.ndjson"
fi

# measure LABEL BINARY SLOW ARGS…: prints seconds and peak RSS (MiB) of one run.
measure() {
    local label=$1 binary=$2 slow=$3
    shift 3
    local report="$work/time.txt"
    if [ "$slow" = slow ]; then
        # time runs diag itself (so %M is diag's peak alone); the pipe's reader waits first.
        /usr/bin/time -o "$report" -f "%e %M" "$binary" show --info --debug "$@" "$store" | { sleep 5; cat >/dev/null; }
    else
        /usr/bin/time -o "$report" -f "%e %M" "$binary" show --info --debug "$@" "$store" >"$work/out"
    fi
    read -r seconds kilobytes <"$report"
    printf '%-44s %8.2f s   peak RSS %6.1f MiB\n' "$label" "$seconds" "$(awk "BEGIN { print $kilobytes / 1024 }")"
    echo "$seconds" >"$work/last"
    echo "$kilobytes" >>"$work/peaks"
}

echo "diag show over $count records ($(du -sh "$store" | cut -f1) store)"
: >"$work/peaks"
measure "ndjson, no predicate (reference)" "$diag" fast --style ndjson
reference=$(cat "$work/last")
measure "ndjson, subsystem != \"x\"" "$diag" fast --style ndjson --predicate 'subsystem != "x"'
printf '%-44s %8.2f×   (target ≤ 1.05)\n' "  time ratio to the reference" "$(awk "BEGIN { print $(cat "$work/last") / $reference }")"
measure "ndjson, subsystem != \"x\", slow pipe" "$diag" slow --style ndjson --predicate 'subsystem != "x"'
measure "json, subsystem != \"x\", slow pipe" "$diag" slow --style json --predicate 'subsystem != "x"'
# The issue's bound on the three runs with the predicate (lines 2 to 4 of the peaks).
largest=$(sed -n 2,4p "$work/peaks" | sort -n | tail -1)
printf '%-44s %8.1f MiB (target < 64 MiB: %s)\n' "  largest peak RSS with the predicate" "$(awk "BEGIN { print $largest / 1024 }")" \
    "$([ "$largest" -lt $((64 * 1024)) ] && echo met || echo NOT met)"
if [ -n "${BEFORE:-}" ]; then
    # The issue's figure: the scan with the predicate against the same scan by the older binary,
    # each the best of three runs taken in turn (the machine is shared: one run says little).
    after_best="" before_best=""
    for round in 1 2 3; do
        measure "after  (round $round): ndjson, subsystem != \"x\"" "$diag" fast --style ndjson --predicate 'subsystem != "x"'
        after_best=$(awk "BEGIN { a = $(cat "$work/last"); b = \"$after_best\"; print (b == \"\" || a < b + 0) ? a : b }")
        measure "BEFORE (round $round): ndjson, subsystem != \"x\"" "$BEFORE" fast --style ndjson --predicate 'subsystem != "x"'
        before_best=$(awk "BEGIN { a = $(cat "$work/last"); b = \"$before_best\"; print (b == \"\" || a < b + 0) ? a : b }")
    done
    printf '%-44s %8.2f s after, %.2f s before: %.3f×   (target ≤ 1.05)\n' "  best of three, after / before" \
        "$after_best" "$before_best" "$(awk "BEGIN { print $after_best / $before_best }")"
    measure "BEFORE: ndjson, subsystem != \"x\", slow pipe" "$BEFORE" slow --style ndjson --predicate 'subsystem != "x"'
fi
