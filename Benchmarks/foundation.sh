#!/bin/sh
# diag's foundation figures beside their references, in one run (not a test):
#   diag import of N generated records   vs  sqlite3's own .import of the same rows as CSV  (target: within 2x)
#   diag show of all of them to /dev/null vs  rg -c . over the NDJSON                         (a floor, not a target)
#   peak RSS of each (target: diag show under 64 MiB, flat whatever N is)
# Builds diag in release (only that product). Usage: Benchmarks/foundation.sh [records, default 1000000]
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
count=${1:-1000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --package-path "$repo" --product diag >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
diag="$(swift build -c release --package-path "$repo" --show-bin-path)/diag"

# Runs a command under /usr/bin/time -v, output to /dev/null; prints "wall-seconds cpu-seconds peak-kilobytes".
measure() {
    /usr/bin/time -v "$@" >/dev/null 2>"$work/time" || { cat "$work/time"; exit 1; }
    awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i] }
                /User time \(seconds\)|System time \(seconds\)/ { cpu += $2 }
                /Maximum resident set size/ { rss = $2 }
                END { printf "%.3f %.3f %d\n", s, cpu, rss }' "$work/time"
}

echo "Generating $count records..."
"$diag" generate --count "$count" --seed 42 --output "$work/records.ndjson"

# The same rows as CSV with the chunk table's columns, for sqlite3's .import.
python3 - "$work/records.ndjson" "$work/records.csv" <<'PY'
import csv, json, sys
levels = {"Default": 0, "Info": 1, "Debug": 2, "Error": 16, "Fault": 17}
events = {"activityCreateEvent": 513, "activityTransitionEvent": 514, "traceEvent": 768, "logEvent": 1024,
          "stateEvent": 1280, "signpostEvent": 1536, "lossEvent": 1792, "timesyncEvent": 2048, "userActionEvent": 2304}
columns = ["timestamp", "messageType", "eventType", "process", "processID", "processImagePath", "userID", "sender",
           "senderImagePath", "subsystem", "category", "threadID", "activityIdentifier", "parentActivityIdentifier",
           "traceID", "eventMessage", "formatString", "signpostID", "signpostName", "signpostType", "metadata"]
with open(sys.argv[1]) as source, open(sys.argv[2], "w", newline="") as target:
    writer = csv.writer(target)
    for line in source:
        r = json.loads(line)
        r["timestamp"] = r.pop("timestampNanoseconds")
        r["messageType"] = levels[r["messageType"]]
        r["eventType"] = events[r["eventType"]]
        if "metadata" in r: r["metadata"] = json.dumps(r["metadata"], separators=(",", ":"))
        writer.writerow(["" if r.get(c) is None else r[c] for c in columns])
PY

# The chunk table's record columns in the CSV's order (the rowid stands for id; receiptTime is NULL on import).
cat > "$work/import.sql" <<SQL
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
CREATE TABLE records (
  timestamp INTEGER NOT NULL, messageType INTEGER NOT NULL, eventType INTEGER NOT NULL,
  process TEXT, processID INTEGER, processImagePath TEXT, userID INTEGER,
  sender TEXT, senderImagePath TEXT, subsystem TEXT, category TEXT, threadID INTEGER,
  activityIdentifier INTEGER, parentActivityIdentifier INTEGER, traceID INTEGER,
  eventMessage TEXT NOT NULL, formatString TEXT, signpostID INTEGER, signpostName TEXT, signpostType TEXT, metadata TEXT);
.mode csv
.import $work/records.csv records
SQL

# The same indexes as a sealed chunk (docs/ARCHITECTURE.md), which diag import builds when it seals.
cat > "$work/indexes.sql" <<SQL
CREATE INDEX records_timestamp ON records(timestamp);
CREATE INDEX records_process ON records(process, timestamp);
CREATE INDEX records_sender ON records(sender, timestamp);
CREATE INDEX records_subsystem ON records(subsystem, timestamp);
CREATE INDEX records_level ON records(messageType, timestamp);
CREATE INDEX records_activity ON records(activityIdentifier);
ANALYZE;
SQL

# Peak anonymous memory (heap, stacks) of a command, sampled from /proc every 20 ms, in kilobytes:
# unlike max RSS it leaves out file pages the process maps (SQLite maps chunk files to read them).
peak_anonymous() {
    "$@" >/dev/null 2>&1 &
    pid=$!
    peak=0
    while kill -0 "$pid" 2>/dev/null; do
        now=$(awk '/^RssAnon:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0)
        [ "${now:-0}" -gt "$peak" ] && peak=$now
        sleep 0.02
    done
    wait "$pid"
    echo "$peak"
}

echo "Measuring..."
set -- $(measure sqlite3 "$work/reference.sqlite" ".read $work/import.sql"); sqlite_s=$1; sqlite_c=$2; sqlite_kb=$3
set -- $(measure sqlite3 "$work/reference.sqlite" ".read $work/indexes.sql"); index_s=$1; index_c=$2
set -- $(measure "$diag" import --store "$work/store" "$work/records.ndjson"); import_s=$1; import_c=$2; import_kb=$3
set -- $(measure "$diag" show --info --debug "$work/store"); show_s=$1; show_c=$2; show_kb=$3
set -- $(measure "$diag" show --info --debug --style ndjson "$work/store"); ndjson_s=$1; ndjson_c=$2; ndjson_kb=$3
set -- $(measure "$diag" show --info --debug --style ndjson "$work/records.ndjson"); file_s=$1; file_c=$2; file_kb=$3
set -- $(measure rg -c . "$work/records.ndjson"); rg_s=$1; rg_c=$2; rg_kb=$3
shown=$("$diag" show --info --debug --style ndjson "$work/store" | wc -l)
anon_kb=$(peak_anonymous "$diag" show --info --debug "$work/store")

awk -v n="$count" -v shown="$shown" \
    -v ss="$sqlite_s" -v sc="$sqlite_c" -v sk="$sqlite_kb" -v is="$import_s" -v ic="$import_c" -v ik="$import_kb" \
    -v ws="$show_s" -v wc="$show_c" -v wk="$show_kb" -v js="$ndjson_s" -v jc="$ndjson_c" -v jk="$ndjson_kb" \
    -v fs="$file_s" -v fc="$file_c" -v fk="$file_kb" -v rs="$rg_s" -v rc="$rg_c" -v rk="$rg_kb" \
    -v xs="$index_s" -v xc="$index_c" -v ak="$anon_kb" '
function row(label, wall, cpu, kb) { printf "%-50s %9.2f %9.2f %12.0f %9.1f\n", label, wall, cpu, n / wall, kb / 1024 }
BEGIN {
    printf "\n%d records generated, %d shown back from the store\n\n", n, shown
    printf "%-50s %9s %9s %12s %9s\n", "run", "wall s", "cpu s", "records/s", "peak MiB"
    row("sqlite3 .import of the CSV (reference)", ss, sc, sk)
    row("sqlite3 .import + the chunk indexes (reference)", ss + xs, sc + xc, sk)
    row("diag import of the NDJSON (sealed, indexed)", is, ic, ik)
    row("rg -c . over the NDJSON (reference)", rs, rc, rk)
    row("diag show (default style) > /dev/null", ws, wc, wk)
    row("diag show --style ndjson > /dev/null", js, jc, jk)
    row("diag show of the NDJSON file > /dev/null", fs, fc, fk)
    printf "\nratios (wall clock; cpu in brackets)\n"
    printf "  import: diag / sqlite3 .import           %6.2fx [%5.2fx]  (target <= 2x: %s)\n", is / ss, (sc > 0 ? ic / sc : 0), (is / ss <= 2 ? "met" : "NOT met")
    printf "  import: diag / sqlite3 .import + indexes %6.2fx [%5.2fx]  (the same work)\n", is / (ss + xs), (sc + xc > 0 ? ic / (sc + xc) : 0)
    printf "  show:   diag show / rg -c .              %6.2fx [%5.2fx]  (rg only counts lines: a floor)\n", ws / rs, (rc > 0 ? wc / rc : 0)
    printf "  show peak RSS                            %6.1f MiB         (target < 64 MiB: %s)\n", wk / 1024, (wk / 1024 < 64 ? "met" : "NOT met")
    printf "  show peak anonymous memory (sampled)     %6.1f MiB         (RSS less the mapped chunk files)\n", ak / 1024
}'
