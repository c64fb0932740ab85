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

# Runs a command under /usr/bin/time -v; prints "seconds kilobytes".
measure() {
    /usr/bin/time -v "$@" >/dev/null 2>"$work/time" || { cat "$work/time"; exit 1; }
    awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i] }
                /Maximum resident set size/ { rss = $2 }
                END { printf "%.3f %d\n", s, rss }' "$work/time"
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

cat > "$work/import.sql" <<SQL
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
CREATE TABLE records (
  id INTEGER PRIMARY KEY, timestamp INTEGER NOT NULL, receiptTime INTEGER, messageType INTEGER NOT NULL,
  eventType INTEGER NOT NULL, process TEXT, processID INTEGER, processImagePath TEXT, userID INTEGER,
  sender TEXT, senderImagePath TEXT, subsystem TEXT, category TEXT, threadID INTEGER,
  activityIdentifier INTEGER, parentActivityIdentifier INTEGER, traceID INTEGER,
  eventMessage TEXT NOT NULL, formatString TEXT, signpostID INTEGER, signpostName TEXT, signpostType TEXT, metadata TEXT);
CREATE VIEW csv_rows AS SELECT timestamp, messageType, eventType, process, processID, processImagePath, userID, sender,
  senderImagePath, subsystem, category, threadID, activityIdentifier, parentActivityIdentifier, traceID, eventMessage,
  formatString, signpostID, signpostName, signpostType, metadata FROM records;
CREATE TRIGGER csv_insert INSTEAD OF INSERT ON csv_rows BEGIN
  INSERT INTO records (timestamp, messageType, eventType, process, processID, processImagePath, userID, sender,
    senderImagePath, subsystem, category, threadID, activityIdentifier, parentActivityIdentifier, traceID, eventMessage,
    formatString, signpostID, signpostName, signpostType, metadata)
  VALUES (NEW.timestamp, NEW.messageType, NEW.eventType, NEW.process, NEW.processID, NEW.processImagePath, NEW.userID,
    NEW.sender, NEW.senderImagePath, NEW.subsystem, NEW.category, NEW.threadID, NEW.activityIdentifier,
    NEW.parentActivityIdentifier, NEW.traceID, NEW.eventMessage, NEW.formatString, NEW.signpostID, NEW.signpostName,
    NEW.signpostType, NEW.metadata);
END;
.mode csv
.import $work/records.csv csv_rows
SQL

echo "Measuring..."
set -- $(measure sqlite3 "$work/reference.sqlite" ".read $work/import.sql"); sqlite_s=$1; sqlite_kb=$2
set -- $(measure "$diag" import --store "$work/store" "$work/records.ndjson"); import_s=$1; import_kb=$2
set -- $(measure "$diag" show --info --debug "$work/store"); show_s=$1; show_kb=$2
set -- $(measure "$diag" show --info --debug --style ndjson "$work/store"); ndjson_s=$1; ndjson_kb=$2
set -- $(measure "$diag" show --info --debug --style ndjson "$work/records.ndjson"); file_s=$1; file_kb=$2
set -- $(measure rg -c . "$work/records.ndjson"); rg_s=$1; rg_kb=$2
shown=$("$diag" show --info --debug --style ndjson "$work/store" | wc -l)

awk -v n="$count" -v shown="$shown" \
    -v ss="$sqlite_s" -v sk="$sqlite_kb" -v is="$import_s" -v ik="$import_kb" \
    -v ws="$show_s" -v wk="$show_kb" -v js="$ndjson_s" -v jk="$ndjson_kb" -v fs="$file_s" -v fk="$file_kb" \
    -v rs="$rg_s" -v rk="$rg_kb" 'BEGIN {
    printf "\n%d records generated, %d shown back from the store\n\n", n, shown
    printf "%-44s %10s %12s %10s\n", "run", "seconds", "records/s", "peak MiB"
    printf "%-44s %10.2f %12.0f %10.1f\n", "sqlite3 .import of the CSV (reference)", ss, n / ss, sk / 1024
    printf "%-44s %10.2f %12.0f %10.1f\n", "diag import of the NDJSON", is, n / is, ik / 1024
    printf "%-44s %10.2f %12.0f %10.1f\n", "rg -c . over the NDJSON (reference)", rs, n / rs, rk / 1024
    printf "%-44s %10.2f %12.0f %10.1f\n", "diag show (default style) > /dev/null", ws, n / ws, wk / 1024
    printf "%-44s %10.2f %12.0f %10.1f\n", "diag show --style ndjson > /dev/null", js, n / js, jk / 1024
    printf "%-44s %10.2f %12.0f %10.1f\n", "diag show of the NDJSON file > /dev/null", fs, n / fs, fk / 1024
    printf "\nratios\n"
    printf "  import: diag / sqlite3 .import        %6.2fx  (target <= 2x: %s)\n", is / ss, (is / ss <= 2 ? "met" : "NOT met")
    printf "  show:   diag show / rg -c .           %6.2fx  (rg only counts lines; a floor)\n", ws / rs
    printf "  show peak RSS                         %6.1f MiB (target < 64 MiB: %s)\n", wk / 1024, (wk / 1024 < 64 ? "met" : "NOT met")
}'
