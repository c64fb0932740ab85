#!/usr/bin/env bash
# The sample end to end: a private diagd, the four components through an export, an import on a
# second device and one fault, a bundle with both devices' stores, and the feedback predicate run
# on the bundle. Usage: samples/demo.sh BIN_DIR   (BIN_DIR: `swift build -c release --show-bin-path`)
# Everything goes under ./demo-output/; re-running starts afresh. FAULT=throttle|push-lost|
# corrupt-attachment|slow-import picks the fault (default throttle), POSTS=N the data set size.
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 BIN_DIR" >&2
    exit 64
fi
if [ ! -d "$1" ]; then
    echo "demo: BIN_DIR '$1' is not a folder; pass the build's bin path (swift build -c release --show-bin-path)" >&2
    exit 64
fi
BIN=$(cd "$1" && pwd)
for tool in diagd diag sync-demo sync-core scheduler transport notifier; do
    if [ ! -x "$BIN/$tool" ]; then
        echo "demo: $BIN/$tool is missing; build first (swift build -c release)" >&2
        exit 1
    fi
done
REPO=$(cd "$(dirname "$0")/.." && pwd)
FAULT=${FAULT:-throttle}
POSTS=${POSTS:-20}
OUT="$(pwd)/demo-output"

rm -rf "$OUT/store" "$OUT/work" "$OUT/bundles" "$OUT/diagd.sock"
mkdir -p "$OUT/bundles"
export DIAG_SOCKET="$OUT/diagd.sock"
export DIAG_STORE="$OUT/store"

DIAGD_PID=""
stop_diagd() {
    if [ -n "$DIAGD_PID" ] && kill -0 "$DIAGD_PID" 2>/dev/null; then
        kill -TERM "$DIAGD_PID"
        wait "$DIAGD_PID" || echo "demo: diagd exited with status $?" >&2
    fi
    DIAGD_PID=""
}
trap stop_diagd EXIT
trap 'exit 130' INT TERM

echo "== Starting diagd on $OUT/store"
"$BIN/diagd" --store "$DIAG_STORE" --socket "$DIAG_SOCKET" 2>"$OUT/diagd.log" &
DIAGD_PID=$!
for _ in $(seq 1 200); do
    [ -S "$DIAG_SOCKET" ] && break
    if ! kill -0 "$DIAGD_PID" 2>/dev/null; then
        echo "demo: diagd did not start:" >&2
        cat "$OUT/diagd.log" >&2
        exit 1
    fi
    sleep 0.05
done
[ -S "$DIAG_SOCKET" ] || { echo "demo: diagd did not open $DIAG_SOCKET within 10 s" >&2; exit 1; }

echo "== Running the sync scenario: export on device A, import on device B, fault '$FAULT'"
"$BIN/sync-demo" run --work "$OUT/work" --posts "$POSTS" --fault "$FAULT" >"$OUT/run.env" 2>"$OUT/run.log" || {
    echo "demo: the scenario failed:" >&2
    cat "$OUT/run.log" >&2
    exit 1
}
# The first N lines of a long output; the rest is read, not cut, so no writer dies of SIGPIPE.
first() { head -n "$1"; cat >/dev/null; }
value() { grep -m1 "^$1=" "$OUT/run.env" | cut -d= -f2-; }
STORE_ID=$(value STORE_ID)
CONTAINER=$(value CONTAINER)
echo "   store A $(value STORE_ID): $(value STORE_FILE) ($(value EXPORT_POSTS) posts, $(value EXPORT_ATTACHMENTS) attachments)"
echo "   store B $(value IMPORT_STORE_ID): $(value IMPORT_STORE_FILE) ($(value IMPORT_POSTS) posts, $(value IMPORT_ATTACHMENTS) attachments)"
echo "   export activity $(value EXPORT_ACTIVITY), container $CONTAINER"

echo "== Collecting a bundle with both sync cores' stores"
"$BIN/diag" collect --store "$DIAG_STORE" --output "$OUT/bundles/" \
    --store-file "$(value STORE_FILE)" --store-file "$(value IMPORT_STORE_FILE)" \
    --var "STORE_ID=$STORE_ID" --var "CONTAINER=$CONTAINER" >"$OUT/collect.log"
BUNDLE=$(tail -n 1 "$OUT/collect.log")
echo "Bundle: $BUNDLE"

stop_diagd
echo "== diagd stopped; from here on only the bundle is read"

SELECTED=$("$BIN/diag" show "$BUNDLE" --predicate-file "$REPO/predicates/feedback.predicate" --info --style ndjson | wc -l)
echo "== The feedback predicate on the bundle: $SELECTED records (Info and above); the first ones, then the errors:"
echo "\$ diag show BUNDLE --predicate-file predicates/feedback.predicate --style compact"
"$BIN/diag" show "$BUNDLE" --predicate-file "$REPO/predicates/feedback.predicate" --style compact | first 6
"$BIN/diag" show "$BUNDLE" --predicate-file "$REPO/predicates/feedback.predicate" --style compact | { grep -E '^[^ ]+ [^ ]+ (E|F) ' || true; } | first 8

echo "== log show-style queries on the bundle (\$STORE_ID and \$CONTAINER come from its manifest)"
echo "\$ diag show BUNDLE --predicate-file predicates/scheduler.predicate --style compact"
"$BIN/diag" show "$BUNDLE" --predicate-file "$REPO/predicates/scheduler.predicate" --style compact | first 8
echo "\$ diag show BUNDLE --predicate 'messageType >= error' --style compact"
"$BIN/diag" show "$BUNDLE" --predicate 'messageType >= error' --style compact | first 12
echo "\$ diag show BUNDLE --activity $(value EXPORT_ACTIVITY) --info --style compact   (one export across the processes)"
"$BIN/diag" show "$BUNDLE" --activity "$(value EXPORT_ACTIVITY)" --info --style compact | first 12
echo "\$ diag stats BUNDLE --count 5"
"$BIN/diag" stats "$BUNDLE" --count 5 | first 24
echo "\$ diag signposts BUNDLE --activities   (what took long: intervals per name, slowest total first)"
"$BIN/diag" signposts "$BUNDLE" --activities | first 40

echo "== Attaching it to a bug report: a feedback bundle of what predicates/feedback.predicate selects"
printf 'Steps to reproduce:\n1. Export %s posts on device A with fault %s.\n2. Import on device B.\n' "$POSTS" "$FAULT" >"$OUT/notes.txt"
"$BIN/diag" feedback --title "Sync repro: fault $FAULT" --notes "$OUT/notes.txt" --store "$DIAG_STORE" \
    --predicate-file "$REPO/predicates/feedback.predicate" --var "STORE_ID=$STORE_ID" --var "CONTAINER=$CONTAINER" \
    --store-file "$(value STORE_FILE)" --store-file "$(value IMPORT_STORE_FILE)" --redact \
    --output "$OUT/bundles/" >"$OUT/feedback.log"
FEEDBACK=$(tail -n 1 "$OUT/feedback.log")
"$BIN/diag" verify "$FEEDBACK"
echo "\$ diag show FEEDBACK_BUNDLE --predicate-file predicates/feedback.predicate   (the result, Error and Fault records)"
"$BIN/diag" show "$FEEDBACK" --predicate-file "$REPO/predicates/feedback.predicate" --style compact | { grep -E '^[^ ]+ [^ ]+ (E|F) ' || true; } | first 10
echo "$("$BIN/diag" show "$FEEDBACK" --predicate-file "$REPO/predicates/feedback.predicate" --info --style ndjson | wc -l) records in the feedback bundle"

echo "== What changed between two repros: the same scenario without the fault, in a diagd of its own"
GOOD_STORE="$OUT/good-store"; GOOD_SOCKET="$OUT/good.sock"
rm -rf "$GOOD_STORE" "$OUT/good-work" "$GOOD_SOCKET"
"$BIN/diagd" --store "$GOOD_STORE" --socket "$GOOD_SOCKET" 2>"$OUT/good-diagd.log" &
DIAGD_PID=$!
for _ in $(seq 1 200); do [ -S "$GOOD_SOCKET" ] && break; sleep 0.05; done
[ -S "$GOOD_SOCKET" ] || { echo "demo: the second diagd did not open $GOOD_SOCKET" >&2; exit 1; }
DIAG_SOCKET="$GOOD_SOCKET" "$BIN/sync-demo" run --work "$OUT/good-work" --posts "$POSTS" >/dev/null 2>"$OUT/good-run.log"
GOOD=$(DIAG_SOCKET="$GOOD_SOCKET" "$BIN/diag" collect --store "$GOOD_STORE" --output "$OUT/bundles/" | tail -n 1)
stop_diagd
echo "\$ diag diff GOOD_BUNDLE BUNDLE --fail-on-new-errors"
status=0
"$BIN/diag" diff "$GOOD" "$BUNDLE" --fail-on-new-errors 2>&1 | first 30 || status=$?
echo "(exit status $status: 2 means new Error/Fault patterns)"
"$BIN/diag" report "$BUNDLE" --baseline "$GOOD" --output "$OUT/report-vs-good.html"
echo "report.html with the diff at the top: $OUT/report-vs-good.html"

echo "== Done"
echo "Bundle: $BUNDLE"
echo "Feedback bundle: $FEEDBACK"
