#!/bin/bash
# A one-minute window over a store whose chunks each hold a few records dated days later (a
# client whose clock was off, records sent late), on the user's path: `diag import`, then
# `diag show` of the window, for this build and, with BEFORE=DIR, DIR's build the same way, in one
# run. The stray records stretch every chunk's time range over every window; a build that keeps
# which parts of a chunk's range hold records (`timeBuckets` in Info.json, docs/STORE.md) skips
# the chunks that hold none in the window without opening them.
#
#   records  `diag generate --count COUNT`, and after every 100,000th line a copy of it dated three
#            days later (its message marked "stray"): two or three in each chunk of an import
#   query    process == "notifier" AND a one-minute window in the middle, --style ndjson; hyperfine,
#            60 runs of each build's command, interleaved by hyperfine's order; the outputs compared
#
# Needs: diag (release), hyperfine, python3.
# Usage: Benchmarks/stray-times.sh [COUNT]      (default: 2000000)
#   BEFORE=DIR   also runs DIR/diag (another build): it imports the same file into a store of its own
#   WORK=/dir    keeps the generated files between runs; DIAG=/path/to/diag uses that binary
# A benchmark, not a test: the machine's load shows in the ratio less than in the absolute figures.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
count=${1:-2000000}
command -v hyperfine >/dev/null || { echo "stray-times.sh needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
if [ -n "${WORK:-}" ]; then work=$WORK; mkdir -p "$work"; else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
source "$repo/Benchmarks/lib.sh"
diag=$(diag_binary "$repo" "$work")

plain="$work/records-$count.ndjson"
strays="$work/strays-$count.ndjson"
if [ ! -s "$strays" ]; then
    echo "generating $count records and the stray ones…" >&2
    [ -s "$plain" ] || "$diag" generate --count "$count" --output "$plain"
    python3 - "$plain" "$strays" <<'PY'
import re, sys
nanos = re.compile(rb'"timestampNanoseconds":(\d+)')
day = re.compile(rb'"timestamp":"(\d{4})-(\d\d)-(\d\d)')
three_days = 3 * 86_400 * 10**9
import datetime
def later(match):
    date = datetime.date(int(match.group(1)), int(match.group(2)), int(match.group(3))) + datetime.timedelta(days=3)
    return b'"timestamp":"' + date.isoformat().encode()
with open(sys.argv[1], "rb") as source, open(sys.argv[2], "wb") as target:
    for number, line in enumerate(source, 1):
        target.write(line)
        if number % 100_000 == 0:
            stray = nanos.sub(lambda m: b'"timestampNanoseconds":' + str(int(m.group(1)) + three_days).encode(), line, count=1)
            stray = day.sub(later, stray, count=1)
            target.write(stray.replace(b'"eventMessage":"', b'"eventMessage":"stray ', 1))
PY
fi

# The generator's first record is at 2026-11-29 09:40:00 UTC, 1000 records per second on average.
minute=$(( 1795945200 + count / 2000 ))
start=$(python3 -c "import datetime,sys; print(datetime.datetime.fromtimestamp(int(sys.argv[1]), datetime.timezone.utc).strftime('%Y-%m-%d %H:%M:00'))" "$minute")
end=$(python3 -c "import datetime,sys; print((datetime.datetime.strptime(sys.argv[1], '%Y-%m-%d %H:%M:%S') + datetime.timedelta(minutes=1)).strftime('%Y-%m-%d %H:%M:00'))" "$start")
predicate="process == \"notifier\" AND timestamp >= \"$start\" AND timestamp < \"$end\""

builds=("this:$diag")
[ -n "${BEFORE:-}" ] && builds+=("before:$BEFORE/diag")
commands=()
for build in "${builds[@]}"; do
    name=${build%%:*} binary=${build#*:}
    store="$work/store-$name-$count"
    rm -rf "$store"
    echo "importing with the $name build…" >&2
    "$binary" import --store "$store" "$strays" >/dev/null
    TZ=UTC "$binary" show --no-pager --info --debug --style ndjson --predicate "$predicate" "$store" >"$work/out-$name"
    commands+=("env TZ=UTC $binary show --no-pager --info --debug --style ndjson --predicate '$predicate' $store")
done
chunks=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["chunks"]))' "$work/store-this-$count/Info.json")
echo "records $count + $((count / 100000)) strays, $chunks chunks, window $start ..< $end, $(wc -l <"$work/out-this") records selected"
if [ -n "${BEFORE:-}" ]; then
    cmp -s "$work/out-this" "$work/out-before" && echo "outputs: the same" || { echo "outputs DIFFER" >&2; exit 1; }
fi
hyperfine -N --style basic --output=pipe --warmup 5 --runs 60 "${commands[@]}" 2>&1 | grep -E 'Benchmark|Time|Range|faster'
