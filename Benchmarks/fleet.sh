#!/bin/bash
# diag fleet on PostgreSQL beside diag show on the same records locally, in one run.
#
#   load    diag fleet load of one bundle holding COUNT generated records (records/s)
#   rare    message CONTAINS[cd] "…"           fleet: pg_trgm GIN on the folded message + residual
#   window  process == X AND a one-minute window  fleet: records_process(process, timestamp) in one day partition
#
# The queries and generator usage are Benchmarks/predicates.sh's. Both sides must print the same
# records; the script checks it. Figures are whole-process wall times (hyperfine means).
#
# Needs: diag (release build), PostgreSQL 15 server programs (postgresql, postgresql-contrib),
# hyperfine, python3; disk: about 4 GB per million records (NDJSON, store, bundle, its unpacked
# copy in the cache, PostgreSQL's tables and indexes). Usage: Benchmarks/fleet.sh [COUNT ...]   (default: 10000000)
#   WORK=/some/dir keeps the generated files, store, bundle and database between runs;
#   DIAG=/path/to/diag uses that binary instead of building a release one;
#   DATABASE=postgresql://… uses that database instead of starting a scratch server in WORK
#   (the scratch server runs with fsync off: it is thrown away).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(10000000)
for tool in hyperfine python3; do
    command -v "$tool" >/dev/null || { echo "fleet.sh needs $tool (apt-get install hyperfine python3)" >&2; exit 1; }
done
if [ -n "${WORK:-}" ]; then work=$WORK; mkdir -p "$work"; else work=$(mktemp -d); fi
pg_pid=""
cleanup() {
    if [ -n "$pg_pid" ]; then kill -INT "$pg_pid" 2>/dev/null || true; while kill -0 "$pg_pid" 2>/dev/null; do sleep 0.2; done; fi
    if [ -z "${WORK:-}" ]; then rm -rf "$work"; fi
}
trap cleanup EXIT

if [ -n "${DIAG:-}" ]; then
    diag=$DIAG
else
    echo "building diag (release)…" >&2
    swift build -c release --product diag --package-path "$repo" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
    diag="$repo/.build/release/diag"
fi

if [ -z "${DATABASE:-}" ]; then
    bin=/usr/lib/postgresql/15/bin
    [ -x "$bin/postgres" ] || { echo "fleet.sh needs PostgreSQL 15 (make setup, or apt-get install postgresql postgresql-contrib)" >&2; exit 1; }
    as_pg=()
    if [ "$(id -u)" = 0 ]; then as_pg=(setpriv --reuid=postgres --regid=postgres --init-groups --); fi
    pgdir="$work/pg"
    if [ ! -f "$pgdir/data/PG_VERSION" ]; then
        mkdir -p "$pgdir"; chmod 755 "$work" "$pgdir"
        [ "$(id -u)" = 0 ] && chown postgres: "$pgdir"
        (cd /tmp && "${as_pg[@]}" "$bin/initdb" -D "$pgdir/data" -A trust -U postgres -E UTF8 --locale=C >"$work/initdb.log")
    fi
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    (cd /tmp && exec "${as_pg[@]}" "$bin/postgres" -D "$pgdir/data" -k "$pgdir" -p "$port" -c listen_addresses=127.0.0.1 \
        -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c shared_buffers=512MB \
        -c maintenance_work_mem=256MB -c max_wal_size=4GB) >"$work/postgres.log" 2>&1 &
    pg_pid=$!
    for _ in $(seq 100); do "$bin/pg_isready" -q -h 127.0.0.1 -p "$port" && break; sleep 0.2; done
    "$bin/pg_isready" -q -h 127.0.0.1 -p "$port" || { cat "$work/postgres.log"; exit 1; }
    DATABASE="postgresql://postgres@127.0.0.1:$port/postgres"
fi

first_second=1795945200
rare_predicate='message CONTAINS[cd] "Title Is A Required Value"'
mean() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["mean"])' "$1"; }
ratio() { python3 -c 'import sys; print(f"{float(sys.argv[1]) / float(sys.argv[2]):.3f}")' "$1" "$2"; }

for count in "${counts[@]}"; do
    ndjson="$work/records-$count.ndjson"
    store="$work/store-$count"
    bundle="$work/bundle-$count.tar"
    if [ ! -s "$ndjson" ]; then
        echo "generating $count records…" >&2
        "$diag" generate --count "$count" --output "$ndjson"
    fi
    if [ ! -f "$store/Info.json" ]; then
        echo "importing and indexing $count records locally…" >&2
        "$diag" import --store "$store" "$ndjson" >/dev/null
        "$diag" index --store "$store" >/dev/null
    fi
    if [ ! -s "$bundle" ]; then
        echo "collecting the store into a bundle…" >&2
        "$diag" collect --store "$store" --output "$bundle" --compression none >/dev/null
    fi
    echo "loading the bundle into PostgreSQL…" >&2
    export XDG_CACHE_HOME="$work/cache"
    load_start=$(date +%s.%N)
    loaded=$("$diag" fleet load --database "$DATABASE" "$bundle")
    load_end=$(date +%s.%N)
    load_seconds=$(python3 -c "print(f'{$load_end - $load_start:.1f}')")
    echo "$loaded" >&2
    case "$loaded" in already*) load_note="(already loaded before this run)";; *) load_note="";; esac

    runs=3; [ "$count" -gt 2000000 ] && runs=2
    minute=$(( first_second + count / 2000 ))
    start=$(python3 -c "import datetime,sys; print(datetime.datetime.fromtimestamp(int(sys.argv[1]), datetime.timezone.utc).strftime('%Y-%m-%d %H:%M:00'))" "$minute")
    end=$(python3 -c "import datetime,sys; print((datetime.datetime.strptime(sys.argv[1], '%Y-%m-%d %H:%M:%S') + datetime.timedelta(minutes=1)).strftime('%Y-%m-%d %H:%M:00'))" "$start")
    window_predicate="process == \"notifier\" AND timestamp >= \"$start\" AND timestamp < \"$end\""

    printf '\n%-10s %-8s %12s %12s %12s %9s\n' records query "fleet (s)" "local (s)" "records out" "fleet/local"
    for name in rare window; do
        if [ "$name" = rare ]; then predicate=$rare_predicate; else predicate=$window_predicate; fi
        fleet_out=$("$diag" fleet show --database "$DATABASE" --info --debug --style ndjson --predicate "$predicate" | sha256sum)
        local_out=$("$diag" show --info --debug --style ndjson --predicate "$predicate" "$store" | sha256sum)
        lines=$("$diag" show --info --debug --style ndjson --predicate "$predicate" "$store" | wc -l)
        [ "$fleet_out" = "$local_out" ] || echo "warning: $name: fleet show and diag show printed different records" >&2
        hyperfine --style none --warmup 1 --runs "$runs" --export-json "$work/f.json" \
            "$diag fleet show --database '$DATABASE' --info --debug --style ndjson --predicate '$predicate'" >/dev/null
        hyperfine --style none --warmup 1 --runs "$runs" --export-json "$work/l.json" \
            "$diag show --info --debug --style ndjson --predicate '$predicate' '$store'" >/dev/null
        f=$(mean "$work/f.json"); l=$(mean "$work/l.json")
        printf '%-10s %-8s %12.4f %12.4f %12s %9s\n' "$count" "$name" "$f" "$l" "$lines" "$(ratio "$f" "$l")"
    done
    if [ -n "$load_note" ]; then
        # A bundle loaded by an earlier run (WORK kept) loads nothing now: no rate to print.
        printf '%-10s %-8s %12s   %s\n' "$count" load - "$load_note; start with an empty WORK (or database) to time the load"
    else
        rate=$(python3 -c "print(f'{$count / $load_seconds:,.0f}')")
        printf '%-10s %-8s %12s   %s records/s\n' "$count" load "$load_seconds" "$rate"
    fi
done
