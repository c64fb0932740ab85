#!/bin/bash
# `diag signposts` beside `diag show --style ndjson` over the same store, in one run, as ratios;
# then report.html of a bundle of that store: its size and Chromium's time to render it.
#
#   1. diag signposts STORE --style json >/dev/null   vs   diag show STORE --info --debug --signpost --style ndjson >/dev/null
#      (the reference prints every record; signposts reads the same store as a user would)    target ≤ 1.2×
#   2. peak RSS of diag signposts (/usr/bin/time)                                              target < 64 MiB
#      The data keep up to 200 intervals of each process open at once, and 1 begin in 50 is
#      never ended (unmatched begins stay open to the end); a last run with --open-limit 1000
#      shows the bound at work: the overflow is counted and the peak RSS stays flat.
#   3. report.html of `diag collect` of the store: size, and `chromium --headless --dump-dom`
#      time beside the same of about:blank (Chromium's own start), as the reference.
#
# The records: 4 components; each record is a signpost with probability 1/5 (so N records hold
# about N/10 intervals), the others log lines with activities. Written by python3 (streamed).
# Needs: python3, /usr/bin/time, chromium (for 3; skipped with a note when missing).
# Usage: Benchmarks/signposts.sh [COUNT ...]   (default: 2000000; the issue's size is 10000000)
#   WORK=/some/dir keeps the generated files and stores between runs; DIAG=/path/to/diag uses that binary;
#   REPORT=0 leaves out part 3.
# A benchmark, not a test: the machine's load shows in the ratios less than in the absolute figures.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(2000000)
command -v python3 >/dev/null || { echo "signposts.sh needs python3" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "signposts.sh needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
if [ -n "${WORK:-}" ]; then work=$WORK; mkdir -p "$work"; else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
if [ -n "${DIAG:-}" ]; then
    diag=$DIAG
else
    echo "building diag (release)…" >&2
    swift build -c release --product diag --package-path "$repo" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
    diag="$repo/.build/release/diag"
fi

generate() {  # count, output
    python3 - "$1" "$2" <<'PY'
import random, sys
count, path = int(sys.argv[1]), sys.argv[2]
random.seed(18)
base = 1_800_000_000_000_000_000
components = [("sync-core", 101, "com.example.sync", "sync", ["export", "import"]),
              ("transport", 102, "com.example.sync.transport", "records", ["upload", "download"]),
              ("scheduler", 103, "com.example.sync.scheduler", "activity", ["activity"]),
              ("notifier", 104, "com.example.sync.notifier", "push", ["push"])]
open_ids = {c[0]: [] for c in components}
next_id = 1
t = base
with open(path, "w", buffering=1 << 20) as out:
    for i in range(count):
        t += random.randint(100_000, 1_900_000)  # about 1000 records a second
        process, pid, subsystem, category, names = components[i % 4]
        head = f'{{"timestampNanoseconds":{t},"messageType":"Default","process":"{process}","processID":{pid},"threadID":{pid * 10 + i % 3},"subsystem":"{subsystem}","category":"{category}",'
        if random.random() < 0.2:
            waiting = open_ids[process]
            if waiting and (len(waiting) >= 200 or random.random() < 0.5):
                name, ident = waiting.pop(random.randrange(len(waiting)))
                out.write(head + f'"eventType":"signpostEvent","signpostType":"end","signpostName":"{name}","signpostID":{ident},"signpostScope":"process","eventMessage":"done"}}\n')
            else:
                name = random.choice(names)
                ident = next_id
                next_id += 1
                if random.random() >= 0.02:  # 1 in 50 is never ended
                    waiting.append((name, ident))
                out.write(head + f'"eventType":"signpostEvent","signpostType":"begin","signpostName":"{name}","signpostID":{ident},"signpostScope":"process","eventMessage":"batch {ident}"}}\n')
        else:
            out.write(head + f'"eventType":"logEvent","activityIdentifier":{1 + i // 500},"eventMessage":"record {i} of the sync run"}}\n')
PY
}

timed() {  # output file, command…: prints "elapsed_seconds max_rss_kib cpu_seconds"
    local output=$1; shift
    /usr/bin/time -f '%e %M %U %S' -o "$work/time.txt" "$@" >"$output"
    awk '{ print $1, $2, $3 + $4 }' "$work/time.txt"
}
median() { python3 -c 'import statistics,sys; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }
ratio() { python3 -c 'import sys; print(f"{float(sys.argv[1]) / float(sys.argv[2]):.3f}")' "$1" "$2"; }

for count in "${counts[@]}"; do
    ndjson="$work/signposts-$count.ndjson"
    store="$work/store-$count"
    if [ ! -s "$ndjson" ]; then echo "generating $count records…" >&2; generate "$count" "$ndjson"; fi
    if [ ! -f "$store/Info.json" ]; then echo "importing $count records…" >&2; "$diag" import --store "$store" "$ndjson" >/dev/null; fi
    s_times=(); d_times=(); s_cpus=(); d_cpus=(); rss=0
    for run in 1 2 3; do
        read -r d _ dc < <(timed /dev/null "$diag" show --info --debug --signpost --style ndjson "$store")
        read -r s r sc < <(timed "$work/signposts.json" "$diag" signposts --style json "$store")
        d_times+=("$d"); s_times+=("$s"); d_cpus+=("$dc"); s_cpus+=("$sc"); [ "$r" -gt "$rss" ] && rss=$r
    done
    d=$(median "${d_times[@]}"); s=$(median "${s_times[@]}")
    intervals=$(python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); print(o["intervalCount"], o["unmatchedBeginCount"], o["unmatchedEndCount"], o["openOverflow"])' "$work/signposts.json")
    read -r paired unmatched_begins unmatched_ends overflow <<<"$intervals"
    echo "records $count: $paired intervals, $unmatched_begins unmatched begins, $unmatched_ends unmatched ends, $overflow open intervals over the bound"
    printf '%-34s %10s s   (median of 3)\n' "diag signposts --style json" "$s"
    printf '%-34s %10s s   (median of 3)\n' "diag show --style ndjson (all)" "$d"
    printf '%-34s %10s     target <= 1.2\n' "signposts / show" "$(ratio "$s" "$d")"
    # CPU time (user + system, median): on a loaded machine it says more than the wall time.
    printf '%-34s %10s     (%s s vs %s s of CPU)\n' "signposts / show, CPU" "$(ratio "$(median "${s_cpus[@]}")" "$(median "${d_cpus[@]}")")" "$(median "${s_cpus[@]}")" "$(median "${d_cpus[@]}")"
    printf '%-34s %10.1f MiB target < 64\n' "signposts peak RSS" "$(python3 -c "print($rss / 1024)")"
    read -r _ r _ < <(timed "$work/bounded.json" "$diag" signposts --style json --open-limit 1000 "$store")
    overflow=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["openOverflow"])' "$work/bounded.json")
    printf '%-34s %10.1f MiB (%s open intervals given up and counted)\n' "signposts --open-limit 1000 RSS" "$(python3 -c "print($r / 1024)")" "$overflow"

    # REPORT=0 stops here (the collect of a 10M-record store takes minutes).
    [ "${REPORT:-1}" = 0 ] && continue
    bundles="$work/bundles-$count"
    rm -rf "$bundles"; mkdir -p "$bundles"
    read -r c _ < <(timed "$work/collect.out" "$diag" collect --store "$store" --output "$bundles/" --compression none)
    bundle=$(tail -n 1 "$work/collect.out")
    mkdir -p "$bundles/x"
    tar -xf "$bundle" -C "$bundles/x" --wildcards '*/report.html'
    report=$(find "$bundles/x" -name report.html | head -n 1)
    printf '%-34s %10s s\n' "diag collect (whole store)" "$c"
    printf '%-34s %10.2f MiB target: a few MB\n' "report.html size" "$(python3 -c "import os,sys; print(os.path.getsize(sys.argv[1]) / 1048576)" "$report")"
    chromium=$(command -v chromium || command -v chromium-browser || true)
    if [ -z "$chromium" ]; then
        echo "report.html render: skipped, no chromium (apt-get install chromium)"
        continue
    fi
    render() { timed "$work/dom.html" "$chromium" --headless --no-sandbox --disable-gpu --user-data-dir="$work/chromium" --dump-dom "$1" 2>/dev/null; }
    r_times=(); b_times=()
    for run in 1 2 3; do
        read -r b _ < <(render about:blank); b_times+=("$b")
        read -r r _ < <(render "file://$report"); r_times+=("$r")
    done
    grep -q 'data-ready="1"' "$work/dom.html" || echo "warning: the report's script did not finish" >&2
    printf '%-34s %10s s   (median of 3)\n' "chromium --dump-dom report.html" "$(median "${r_times[@]}")"
    printf '%-34s %10s s   (median of 3; Chromium alone)\n' "chromium --dump-dom about:blank" "$(median "${b_times[@]}")"
done
