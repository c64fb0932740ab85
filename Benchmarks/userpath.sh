#!/bin/bash
# Queries on the user's path, beside ripgrep over the same NDJSON, in one run, as ratios.
#
# No step a user would not take: nobody runs `diag index`. Three ways the records reach a store:
#   import   `diag import --store S FILE` (it builds the search index itself), then `diag show S`
#   diagd    the records sent to a running diagd over its socket by 4 clients (a sync every 5000
#            waited for), the query run 5 s after the last acknowledgement, diagd still running.
#            diagd is first told to store Debug records (`diag config --mode persist:debug`), so
#            that it holds every record; it stamps each with the sending process from the kernel
#            (here python3), so its window query selects by subsystem instead of process
#   bundle   `diag collect` of the imported store, then `diag show BUNDLE` (the unpack cache warm:
#            hyperfine's warm-up run fills it, as the first `show` of a received bundle does)
# Queries, each beside rg over the NDJSON (both sides print the records they select; the script
# checks that the counts agree):
#   rare     message CONTAINS[cd] of a phrase in 650 records of 1M      target ≤ 0.1× rg at 10M, ≤ 0.5× at 1M
#   common   message CONTAINS[cd] of a phrase in 1 record in 20       (the scan path)  target ≤ 1.5× rg
#   matches  message MATCHES a pattern with a literal run               target ≤ 1× rg
#   window   process == X AND a one-minute window                       target < 20 ms, whole process
# and, as a user types them without --style, the window and the common phrase again in the default
# style (window-d, common-d: the same records and rg's figures, lines of text instead of NDJSON).
# The window has a second reference, as rg reads the whole NDJSON for it: the sqlite3 shell reading
# the same rows from the same chunk files (import and diagd paths), each chunk the window meets
# attached, its rows selected by the same column and time range and printed as JSON in (timestamp,
# id) order (the "(sqlite3)" line after the window's; its ratio is diag's time over the shell's).
# And each diag query's peak RSS (target < 64 MiB). rg is timed right before each diag query
# (the window's default style excepted: it follows the window by seconds and takes its rg
# figure), once that path's store is ready, so that both sides meet the same machine. A "(load)"
# line before each path's runs gives the machine's load average then. A "(cached)" line after
# rg's first runs and after each path's queries says how much of what they read the page cache held (util-linux's fincore):
# at 10M records the files may not all stay cached, and a side that read from the disk is slower
# for it.
#
# Needs: diag and diagd (release), hyperfine, rg, python3, /usr/bin/time.
# Usage: Benchmarks/userpath.sh [COUNT ...]     (default: 1000000)
#   WORK=/dir keeps generated files and stores between runs; DIAG_BIN=/dir holds an already built
#   diag and diagd (default: a release build of this checkout); PATHS="diagd" (or any of
#   import, diagd, bundle) runs only those paths (default: all three).
# A benchmark, not a test: the machine's load shows in the ratios less than in the absolute figures.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1000000)
for tool in hyperfine rg python3 sqlite3; do
    command -v "$tool" >/dev/null || { echo "userpath.sh needs $tool (apt-get install hyperfine ripgrep python3 sqlite3)" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "userpath.sh needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
paths=" ${PATHS:-import diagd bundle} "
if [ -n "${WORK:-}" ]; then work=$WORK; mkdir -p "$work"; else work=$(mktemp -d); fi
if [ -n "${DIAG_BIN:-}" ]; then
    bin=$DIAG_BIN
else
    echo "building diag and diagd (release)…" >&2
    swift build -c release --product diag --package-path "$repo" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
    swift build -c release --product diagd --package-path "$repo" >>"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
    bin=$(swift build -c release --package-path "$repo" --show-bin-path)
fi
diag="$bin/diag"
diagd_pid=""
cleanup() {
    if [ -n "$diagd_pid" ] && kill -0 "$diagd_pid" 2>/dev/null; then kill -TERM "$diagd_pid"; wait "$diagd_pid" || true; fi
    [ -n "${WORK:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

# The generator's first record is at 2026-11-29 09:40:00 UTC, 1000 records per second on average.
first_second=1795945200
rare_predicate='message CONTAINS[cd] "Title Is A Required Value"'
rare_rg=(-i -F 'title is a required value')
common_predicate='message CONTAINS[cd] "DELIVERING PUSH"'
common_rg=(-i -F 'delivering push')
matches_predicate='message MATCHES ".*batch [0-9]+/4.*"'
matches_rg=('"eventMessage":"[^"]*batch [0-9]+/4')

mean() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["mean"])' "$1"; }
rss_mib() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }'; }
ratio() { python3 -c 'import sys; print(f"{float(sys.argv[1]) / float(sys.argv[2]):.3f}")' "$1" "$2"; }
# The share of the files (or of the files under the directories) the page cache holds now, in %:
# at 10M records the NDJSON (5.9 GB) and the stores (5–7 GB each) may be more than the machine
# keeps cached. Then rg, or diag, reads part of its input from the disk, and its times (so the
# ratios) are not those of a warm cache; the table says how much was cached after each side ran.
# fincore is util-linux's; without it, "n/a".
resident() {  # file or directory…
    command -v fincore >/dev/null || { echo n/a; return; }
    # A file gone meanwhile (a live store's WAL) fails fincore for itself, not the script; a
    # file's last page counts no more than the bytes it holds (a 3-byte file is one page cached).
    { find "$@" -type f -print0 | xargs -0 -r fincore -b -n -r -o RES,SIZE 2>/dev/null || true; } |
        awk '{ held += ($1 < $2 ? $1 : $2); size += $2 } END { if (size > 0) printf "%.0f%%", 100 * held / size; else print "n/a" }'
}
cached() {  # records, path, file or directory…
    local records=$1 path=$2; shift 2
    local share; share=$(resident "$@")
    printf '%-9s %-7s %-8s %10s\n' "$records" "$path" "(cached)" "$share"
    if [ "$share" != n/a ] && [ "${share%\%}" -lt 90 ]; then
        echo "          (only $share in the page cache: part of the reads above came from the disk)"
    fi
}

# The machine's load average (1, 5, 15 minutes) as the path's queries start: the figures of a
# loaded machine say so beside them.
load() {  # records, path
    printf '%-9s %-7s %-8s %10s\n' "$1" "$2" "(load)" "$(cut -d' ' -f1-3 /proc/loadavg)"
}

# Whether the kernel pages out file pages nobody touched for a while (DAMON's `pageout` scheme,
# as on the VMs this was measured on: pages of files idle for 60 s, at up to 128 MiB a second):
# then a store or an NDJSON file left alone between two steps leaves the page cache, whatever the
# free memory, and the "(cached)" lines below show it. Printed once, before the table.
pageout_note() {
    local admin=/sys/kernel/mm/damon/admin/kdamonds context scheme age aggregation quota interval
    [ -d "$admin" ] || return 0
    for context in "$admin"/*/contexts/*; do
        [ "$(cat "${context%/contexts/*}/state" 2>/dev/null)" = on ] || continue
        for scheme in "$context"/schemes/*; do
            [ "$(cat "$scheme/action" 2>/dev/null)" = pageout ] || continue
            age=$(cat "$scheme/access_pattern/age/min" 2>/dev/null) || continue
            aggregation=$(cat "$context/monitoring_attrs/intervals/aggr_us" 2>/dev/null) || continue
            quota=$(cat "$scheme/quotas/bytes" 2>/dev/null || echo 0)
            interval=$(cat "$scheme/quotas/reset_interval_ms" 2>/dev/null || echo 0)
            printf '(this machine pages out cached file pages idle for %s s (DAMON pageout' "$(( age * aggregation / 1000000 ))"
            if [ "$quota" -gt 0 ] && [ "$interval" -gt 0 ]; then
                printf ', up to %s MiB a second' "$(( quota * 1000 / interval / 1048576 ))"
            fi
            printf '): files idle between steps are read from the disk again)\n'
            return 0
        done
    done
}

# Sends an NDJSON file to diagd's socket from 4 processes (every 4th line each), with a sync
# every 5000 records waited for; returns when every sync is answered (every record committed).
send_to_diagd() {  # socket, ndjson
    python3 - "$1" "$2" <<'PY'
import json, os, socket, sys
path, ndjson = sys.argv[1], sys.argv[2]
children = []
for part in range(4):
    pid = os.fork()
    if pid:
        children.append(pid)
        continue
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.connect(path)
    replies = connection.makefile("rb")
    batch, sync = [], 0
    def flush():
        global batch, sync
        sync += 1
        batch.append(b'{"sync":%d}\n' % sync)
        connection.sendall(b"".join(batch))
        batch = []
        while True:
            reply = json.loads(replies.readline())
            if "error" in reply:
                sys.exit(f"diagd refused a line: {reply['error']}")
            if reply.get("synced") == sync:
                return
    with open(ndjson, "rb") as lines:
        for number, line in enumerate(lines):
            if number % 4 != part:
                continue
            batch.append(line)
            if len(batch) == 5000:
                flush()
    flush()
    os._exit(0)
failed = 0
for pid in children:
    failed |= os.waitpid(pid, 0)[1]
sys.exit(1 if failed else 0)
PY
}

pageout_note
printf '%-9s %-7s %-8s %10s %10s %8s %9s  %s\n' records path query "diag (s)" "rg (s)" "diag/rg" "RSS MiB" target
for count in "${counts[@]}"; do
    ndjson="$work/records-$count.ndjson"
    if [ ! -s "$ndjson" ]; then
        echo "generating $count records…" >&2
        "$diag" generate --count "$count" --output "$ndjson"
    fi
    runs=3; [ "$count" -gt 2000000 ] && runs=1
    minute=$(( first_second + count / 2000 ))
    start=$(python3 -c "import datetime,sys; print(datetime.datetime.fromtimestamp(int(sys.argv[1]), datetime.timezone.utc).strftime('%Y-%m-%d %H:%M:00'))" "$minute")
    end=$(python3 -c "import datetime,sys; print((datetime.datetime.strptime(sys.argv[1], '%Y-%m-%d %H:%M:%S') + datetime.timedelta(minutes=1)).strftime('%Y-%m-%d %H:%M:00'))" "$start")
    window_predicate="process == \"notifier\" AND timestamp >= \"$start\" AND timestamp < \"$end\""
    window_rg=("\"timestamp\":\"${start:0:16}.*\"process\":\"notifier\"")
    window_subsystem_predicate="subsystem == \"com.example.sync.notifier\" AND timestamp >= \"$start\" AND timestamp < \"$end\""
    window_subsystem_rg=("\"timestamp\":\"${start:0:16}.*\"subsystem\":\"com.example.sync.notifier\"")

    # rg's figures, measured right before the diag query they stand beside (`query`), so that
    # rg and diag meet the same machine: at 10M, the import or the collect before a path's
    # queries leaves gigabytes of chunk files being written back to disk, and rg timed once
    # before any of them (until 2026-12-06) took 0.425 s for the rare needle where diag's
    # 0.059 s ran beside that writeback (by hand afterwards, the machine quiet: 0.443 s and
    # 0.040 s). Timed once per path instead (until 2026-12-07), the last queries' rg figures were
    # a minute old at 10M, and this VM's speed changes within minutes: rg's rare needle took
    # 0.060 s at 1M at 01:22 UTC and 0.117–0.120 s at 01:36, the same files cached.
    declare -A rg_mean=()
    rg_time() {  # name, rg arguments…
        local name=$1; shift
        local quoted; printf -v quoted '%q ' "$@"
        hyperfine --style none --output=pipe --warmup 1 --runs "$runs" --export-json "$work/r.json" "rg $quoted '$ndjson'" >/dev/null
        rg_mean[$name]=$(mean "$work/r.json")
    }

    query() {  # path, source, name, predicate, target, runs, rg arguments…
        local path=$1 source=$2 name=$3 predicate=$4 target=$5 query_runs=$6; shift 6
        # A name ending in -d is the query in the default style, as a user types it without
        # --style: a header line and three closing lines around the records.
        local style=ndjson extra_lines=0
        if [[ "$name" == *-d ]]; then style=default; extra_lines=4; fi
        # rg first, unless this is the window's default style, which takes the figure rg gave
        # for the window seconds before.
        [[ "$name" == window*-d ]] || rg_time "${name%-d}" "$@"
        # Once first, counting the records it gives (checked against rg's below), so that a
        # refusal (a bundle the cache has no room for) says why, not only hyperfine's "non-zero
        # exit code" (pipefail: the pipeline fails with diag).
        local found expected
        if ! found=$(TZ=UTC "$diag" show --no-pager --info --debug --style "$style" --predicate "$predicate" "$source" 2>"$work/query.err" | wc -l); then
            echo "userpath.sh: diag show of the $path path ($name) failed: $(cat "$work/query.err")" >&2
            exit 1
        fi
        found=$((found - extra_lines))
        last_found=$found
        hyperfine --style none --output=pipe --warmup 1 --runs "$query_runs" --export-json "$work/d.json" \
            "TZ=UTC $diag show --no-pager --info --debug --style $style --predicate '$predicate' '$source'" >/dev/null
        local d; d=$(mean "$work/d.json")
        last_mean=$d
        printf '%-9s %-7s %-8s %10.4f %10.4f %8s %9s  %s\n' "$count" "$path" "$name" "$d" "${rg_mean[${name%-d}]}" \
            "$(ratio "$d" "${rg_mean[${name%-d}]}")" "$(rss_mib "$diag" show --no-pager --info --debug --style "$style" --predicate "$predicate" "$source")" "$target"
        expected=$(rg -c "$@" "$ndjson" || true)
        [ "$found" = "$expected" ] || echo "warning: $path $name found $found records, rg $expected lines" >&2
    }
    rare_target="≤ 0.5 at 1M"; [ "$count" -ge 10000000 ] && rare_target="≤ 0.1 at 10M"
    # The sqlite3 shell reading the window's rows from the store's chunk files: every chunk whose
    # time range (Info.json) meets the window attached, `SELECT *` of each where `column` is
    # `value` in the window, all in (timestamp, id) order, as JSON (one row a line). Printed
    # beside the window's diag time (`last_mean`), with the row counts checked against diag's.
    sqlite_window() {  # path, store, column, value, diag's record count
        local path=$1 source=$2 column=$3 value=$4 found=$5
        local first
        first=$(python3 - "$source" "$column" "$value" "$start" "$end" "$work/window.sql" <<'PY'
import calendar, json, os, sys, time
store, column, value, start, end, out = sys.argv[1:7]
ns = lambda text: calendar.timegm(time.strptime(text, "%Y-%m-%d %H:%M:%S")) * 10**9
low, high = ns(start), ns(end)
files = []
for chunk in json.load(open(os.path.join(store, "Info.json")))["chunks"]:
    oldest, newest = chunk.get("oldestTimestamp"), chunk.get("newestTimestamp")
    if oldest is not None and newest is not None and (newest < low or oldest >= high):
        continue
    sealed = os.path.join(store, "Persist", chunk["file"])
    burst = os.path.join(store, "Persist", "Burst", chunk["file"])
    files.append(sealed if os.path.exists(sealed) or not os.path.exists(burst) else burst)
if not files or len(files) > 10:
    sys.exit(f"{len(files)} chunks in the window: the sqlite3 shell attaches 1 to 10")
quote = lambda text: "'" + text.replace("'", "''") + "'"
with open(out, "w") as sql:
    for number, path in enumerate(files[1:], 1):
        sql.write(f"ATTACH {quote(path)} AS c{number};\n")
    names = ["main"] + [f"c{number}" for number in range(1, len(files))]
    condition = f"{column} = {quote(value)} AND timestamp >= {low} AND timestamp < {high}"
    sql.write(" UNION ALL ".join(f"SELECT * FROM {name}.records WHERE {condition}" for name in names))
    sql.write(" ORDER BY timestamp, id;\n")
print(files[0])
PY
        ) || { echo "userpath.sh: no sqlite3 reference for the $path window" >&2; return 0; }
        local rows
        rows=$(sqlite3 -readonly -json "$first" ".read $work/window.sql" | wc -l)
        hyperfine --style none --output=pipe --warmup 1 --runs 20 --export-json "$work/s.json" \
            "sqlite3 -readonly -json '$first' '.read $work/window.sql'" >/dev/null
        local q; q=$(mean "$work/s.json")
        printf '%-9s %-7s %-8s %10.4f %10s %8s %9s  %s\n' "$count" "$path" "(sqlite3)" "$q" "" \
            "$(ratio "$last_mean" "$q")" "" "the sqlite3 shell, the same rows as JSON; ratio: diag / it"
        [ "$rows" = "$found" ] || echo "warning: $path window: the sqlite3 shell gave $rows rows, diag $found records" >&2
    }
    queries() {  # path, source
        load "$count" "$1"
        query "$1" "$2" rare "$rare_predicate" "$rare_target" 5 "${rare_rg[@]}"
        cached "$count" rg "$ndjson"
        query "$1" "$2" common "$common_predicate" "≤ 1.5" "$runs" "${common_rg[@]}"
        query "$1" "$2" matches "$matches_predicate" "≤ 1" "$runs" "${matches_rg[@]}"
        if [ "$1" = diagd ]; then
            query "$1" "$2" window-s "$window_subsystem_predicate" "< 0.020 s" 20 "${window_subsystem_rg[@]}"
            sqlite_window "$1" "$2" subsystem com.example.sync.notifier "$last_found"
            query "$1" "$2" window-s-d "$window_subsystem_predicate" "(default style)" 20 "${window_subsystem_rg[@]}"
        else
            query "$1" "$2" window "$window_predicate" "< 0.020 s" 20 "${window_rg[@]}"
            [ "$1" = bundle ] || sqlite_window "$1" "$2" process notifier "$last_found"
            query "$1" "$2" window-d "$window_predicate" "(default style)" 20 "${window_rg[@]}"
        fi
        query "$1" "$2" common-d "$common_predicate" "(default style)" "$runs" "${common_rg[@]}"
    }

    store="$work/import-$count"
    if [[ "$paths" == *" import "* || "$paths" == *" bundle "* ]] && [ ! -f "$store/Info.json" ]; then
        echo "importing $count records…" >&2
        /usr/bin/time -f '%e' -o "$work/import.time" "$diag" import --store "$store" "$ndjson" >/dev/null
        printf '%-9s %-7s %-8s %10s\n' "$count" import "(import)" "$(cat "$work/import.time")"
    fi
    if [[ "$paths" == *" import "* ]]; then
        queries import "$store"
        cached "$count" import "$store"
    fi

    if [[ "$paths" == *" diagd "* ]]; then
        live="$work/diagd-$count"
        rm -rf "$live"; mkdir -p "$live"
        # A quota above the records' size: diagd's default (10 % of the file system, at most 4G)
        # dropped the 6 oldest of 49 chunks at 10M, and the counts no longer matched rg's.
        "$bin/diagd" --store "$live/store" --socket "$live/diagd.sock" --max-size 64G 2>"$live/diagd.stderr" &
        diagd_pid=$!
        for _ in $(seq 1 200); do [ -S "$live/diagd.sock" ] && break; sleep 0.05; done
        "$diag" config --socket "$live/diagd.sock" --mode level:debug,persist:debug >/dev/null
        sent=$(date +%s.%N)
        send_to_diagd "$live/diagd.sock" "$ndjson"
        printf '%-9s %-7s %-8s %10.2f\n' "$count" diagd "(send)" "$(python3 -c "import time,sys; print(time.time() - float(sys.argv[1]))" "$sent")"
        sleep 5
        # How much of the store diagd has finished by itself when the queries start (issue 15):
        # chunks with the search index, of all, and how many are sealed (a chunk not sealed yet
        # has no timestamp index, so a window scans its block sets).
        printf '%-9s %-7s %-8s %10s\n' "$count" diagd "(indexed)" "$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["chunks"]; print("%d/%d chunks (%d sealed)" % (sum(1 for x in c if x["sealed"] and x["searchIndex"]), len(c), sum(1 for x in c if x["sealed"])))' "$live/store/Info.json")"
        queries diagd "$live/store"
        cached "$count" diagd "$live/store"
        kill -TERM "$diagd_pid"; wait "$diagd_pid" || true; diagd_pid=""
    fi

    [[ "$paths" == *" bundle "* ]] || continue
    bundles="$work/bundles-$count"
    rm -rf "$bundles"; mkdir -p "$bundles"
    /usr/bin/time -f '%e' -o "$work/collect.time" "$diag" collect --store "$store" --output "$bundles/" >"$work/collect.out" 2>"$work/collect.err"
    printf '%-9s %-7s %-8s %10s\n' "$count" bundle "(collect)" "$(cat "$work/collect.time")"
    # A bundle over the readers' default unpack bound (10M records make about 5 GB): collect
    # names the DIAG_UNPACK_LIMIT that opens it, and the reader sets it, as a user would.
    limit=$(grep -o 'DIAG_UNPACK_LIMIT=[0-9]*M' "$work/collect.err" | head -n 1 | cut -d= -f2 || true)
    if [ -n "$limit" ]; then
        echo "          (collect's note: the bundle needs DIAG_UNPACK_LIMIT=$limit; the bundle path sets it)"
        export DIAG_UNPACK_LIMIT=$limit
    fi
    bundle=$(tail -n 1 "$work/collect.out")
    queries bundle "$bundle"
    # The unpack cache is keyed by the archive's SHA-256.
    unpacked="${XDG_CACHE_HOME:-$HOME/.cache}/diag/bundles/$(sha256sum "$bundle" | cut -c1-64)"
    [ ! -d "$unpacked" ] || cached "$count" bundle "$unpacked"
    # Each run collects a new bundle (a new SHA-256), and the cache keeps every unpacked copy:
    # at 10M records some 5 GB a run, 18 GB on this machine after a day of runs. The copy this
    # run made goes; the user's other cached bundles stay.
    rm -rf "$unpacked"
    unset DIAG_UNPACK_LIMIT
done
