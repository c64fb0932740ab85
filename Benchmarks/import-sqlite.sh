#!/bin/bash
# `diag import` beside `sqlite3 .import` of the same rows plus the same indexes, in one run.
#
#   diag     diag import --store S records.ndjson: parses NDJSON, writes the chunks with their
#            indexes, and builds every chunk's message search index before it returns
#   sqlite3  the same rows as CSV (exported from the store diag wrote, not timed) loaded into one
#            database with the chunk schema by the sqlite3 shell's .import, then the same six
#            indexes and the same trigram search table filled (lower() standing in for the folding)
#   target   diag ≤ 2× sqlite3 (issue 15)
# Both sides write with journal_mode=WAL and synchronous=NORMAL, as the store does.
#
# Needs: diag (release), sqlite3, python3, /usr/bin/time.
# Usage: Benchmarks/import-sqlite.sh [COUNT ...]   (default: 1000000)
#   WORK=/dir keeps the generated files between runs; DIAG=/path/to/diag uses that binary.
# A benchmark, not a test: the machine's load shows in the ratio less than in the absolute figures.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1000000)
command -v sqlite3 >/dev/null || { echo "import-sqlite.sh needs sqlite3 (apt-get install sqlite3)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "import-sqlite.sh needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
if [ -n "${WORK:-}" ]; then work=$WORK; mkdir -p "$work"; else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
if [ -n "${DIAG:-}" ]; then
    diag=$DIAG
else
    echo "building diag (release)…" >&2
    swift build -c release --product diag --package-path "$repo" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
    diag="$repo/.build/release/diag"
fi
timed() {  # command…: prints "elapsed_seconds cpu_seconds max_rss_kib"
    /usr/bin/time -f '%e %U %S %M' -o "$work/time.txt" "$@" >/dev/null
    awk '{ print $1, $2 + $3, $4 }' "$work/time.txt"
}
ratio() { python3 -c 'import sys; print(f"{float(sys.argv[1]) / float(sys.argv[2]):.2f}")' "$1" "$2"; }

for count in "${counts[@]}"; do
    ndjson="$work/records-$count.ndjson"
    [ -s "$ndjson" ] || "$diag" generate --count "$count" --output "$ndjson"
    store="$work/store-$count"
    rm -rf "$store"
    sync
    read -r d_wall d_cpu d_rss < <(timed "$diag" import --store "$store" "$ndjson")
    indexed=$("$diag" index --status --store "$store" 2>&1 | head -n 1)

    # The reference's input: the rows diag stored, as CSV, and the chunk schema without its indexes.
    csv="$work/records-$count.csv"
    first=$(ls "$store"/Persist/*.chunk.sqlite | head -n 1)
    rm -f "$csv"
    # Each chunk numbers its rows from 1: the ids are moved past the previous chunks' so that
    # the one reference table takes them all.
    columns=$(sqlite3 "$first" "SELECT group_concat(name, ', ') FROM pragma_table_info('records') WHERE name != 'id'")
    offset=0
    for chunk in "$store"/Persist/*.chunk.sqlite; do
        sqlite3 -csv "$chunk" "SELECT id + $offset, $columns FROM records" >>"$csv"
        offset=$((offset + $(sqlite3 "$chunk" "SELECT coalesce(max(id), 0) FROM records")))
    done
    table=$(sqlite3 "$first" "SELECT sql FROM sqlite_schema WHERE name = 'records'")
    indexes=$(sqlite3 "$first" "SELECT sql || ';' FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL")
    search=$(sqlite3 "$first" "SELECT sql FROM sqlite_schema WHERE name = 'message_search'")
    reference="$work/reference-$count.sqlite"
    rm -f "$reference" "$reference-wal" "$reference-shm"
    cat >"$work/load.sql" <<SQL
PRAGMA journal_mode=WAL;
PRAGMA synchronous=NORMAL;
$table;
.import --csv $csv records
$indexes
$search;
INSERT INTO message_search(rowid, message) SELECT id, lower(eventMessage) FROM records;
SQL
    sync
    read -r s_wall s_cpu s_rss < <(timed sqlite3 "$reference" ".read $work/load.sql")
    rows=$(sqlite3 "$reference" "SELECT count(*) FROM records")
    printf 'records %s (%s rows in the reference; %s)\n' "$count" "$rows" "$indexed"
    printf '%-40s %9s s wall %9s s CPU %8.1f MiB\n' "diag import (with its search index)" "$d_wall" "$d_cpu" "$(python3 -c "print($d_rss / 1024)")"
    printf '%-40s %9s s wall %9s s CPU %8.1f MiB\n' "sqlite3 .import + indexes + search" "$s_wall" "$s_cpu" "$(python3 -c "print($s_rss / 1024)")"
    printf '%-40s %9s   wall %9s   CPU      target <= 2\n' "diag / sqlite3" "$(ratio "$d_wall" "$s_wall")" "$(ratio "$d_cpu" "$s_cpu")"
done
