#!/usr/bin/env bash
# Syslog datagrams into diagd (--syslog-socket) beside rsyslog's imuxsock (Debian's rsyslogd,
# started privately with its own configuration) and beside the same records over diagd's own
# socket (NDJSON, one sync at the end), in one run. Each figure is records/s from the first
# send until the last record is durable (diagd: committed, answered by a sync; rsyslog: written
# by omfile to its file, which is not fsynced; OTLP: every POST answered 200, which diagd sends
# once committed). The sender is Benchmarks/syslog_sender.py, one process, blocking sockets (as
# syslog(3) is); for OTLP/HTTP it posts protobuf batches of 512 on one keep-alive connection,
# one at a time, as an SDK's exporter thread does. Beside them, the OpenTelemetry Python SDK's own
# path (logging -> LoggingHandler -> BatchLogRecordProcessor -> OTLP/HTTP exporter) on at most
# 200000 of the records, in the private environment Tests/Scripts/otel-venv.sh makes (PyPI):
# what a Python component reaches, bound by the SDK's own cost per record.
#
#   Benchmarks/syslog-otlp.sh [records]     (default 200000)
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
COUNT=${1:-200000}
[ -x /usr/sbin/rsyslogd ] || { echo "syslog-otlp.sh: /usr/sbin/rsyslogd is missing (make setup installs rsyslog)" >&2; exit 1; }
swift build -c release --product diagd >/dev/null
BIN=$(swift build -c release --show-bin-path)
SENDER="python3 Benchmarks/syslog_sender.py"

WORK=$(mktemp -d /tmp/diag-bench-syslog.XXXXXX)
DIAGD_PID=""
RSYSLOG_PID=""
trap cleanup_benchmark EXIT
now() { date +%s.%N; }

echo "== rsyslogd, imuxsock on a private socket (rate limiting off), omfile: $COUNT datagrams"
start_rsyslog "$WORK/rsyslog" 'module(load="imuxsock" SysSock.Use="off")' \
    "input(type=\"imuxsock\" Socket=\"$WORK/rsyslog/log\" RateLimit.Interval=\"0\")" "action(type=\"omfile\" file=\"$WORK/rsyslog/messages\")"
for _ in $(seq 100); do [[ -S "$WORK/rsyslog/log" ]] && break; sleep 0.05; done
START=$(now)
$SENDER syslog "$WORK/rsyslog/log" "$COUNT"
wait_for_lines "$WORK/rsyslog/messages" "$COUNT" "$RSYSLOG_PID"
RSYSLOG_SECONDS=$(awk -v a="$START" -v b="$(now)" 'BEGIN { print b - a }')
kill -TERM "$RSYSLOG_PID"; RSYSLOG_PID=""

echo "== diagd --syslog-socket: $COUNT datagrams"
OTLP_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$BIN/diagd" --store "$WORK/store" --socket "$WORK/diagd.sock" --syslog-socket "$WORK/log" --otlp-http "127.0.0.1:$OTLP_PORT" 2>"$WORK/diagd.stderr" &
DIAGD_PID=$!
for _ in $(seq 1 200); do [[ -S "$WORK/diagd.sock" && -S "$WORK/log" ]] && break; sleep 0.05; done
START=$(now)
$SENDER syslog "$WORK/log" "$COUNT"
LOST=$($SENDER wait-diagd "$WORK/diagd.sock" "$COUNT")
echo "$LOST"
SYSLOG_SECONDS=$(awk -v a="$START" -v b="$(now)" 'BEGIN { print b - a }')

echo "== diagd's own socket: the same $COUNT records as NDJSON, one sync at the end"
START=$(now)
$SENDER ndjson "$WORK/diagd.sock" "$COUNT"
NDJSON_SECONDS=$(awk -v a="$START" -v b="$(now)" 'BEGIN { print b - a }')

echo "== diagd --otlp-http: the same $COUNT records as OTLP/HTTP protobuf, batches of 512, each answered once committed"
START=$(now)
$SENDER otlp "127.0.0.1:$OTLP_PORT" "$COUNT"
OTLP_SECONDS=$(awk -v a="$START" -v b="$(now)" 'BEGIN { print b - a }')

SDK_COUNT=$(( COUNT < 200000 ? COUNT : 200000 ))
echo "== the OpenTelemetry Python SDK (logging -> BatchLogRecordProcessor -> OTLP/HTTP) into diagd: $SDK_COUNT records"
OTEL_PYTHON=$(sh Tests/Scripts/otel-venv.sh)
SDK_OUT=$(OTEL_SERVICE_NAME=sync-core OTEL_EXPORTER_OTLP_LOGS_ENDPOINT="http://127.0.0.1:$OTLP_PORT/v1/logs" "$OTEL_PYTHON" Benchmarks/otel_sdk_sender.py "$SDK_COUNT")
echo "$SDK_OUT"
SDK_SECONDS=$(echo "$SDK_OUT" | sed -n 's/.*seconds=//p')
PEAK_KB=$(awk '/VmHWM/ {print $2}' "/proc/$DIAGD_PID/status")
kill -TERM "$DIAGD_PID"; wait "$DIAGD_PID"; DIAGD_PID=""
STORED=$(stored_records "$WORK/store" "process <> 'diagd'")

awk -v n="$COUNT" -v r="$RSYSLOG_SECONDS" -v s="$SYSLOG_SECONDS" -v j="$NDJSON_SECONDS" -v o="$OTLP_SECONDS" -v sdkn="$SDK_COUNT" -v sdk="$SDK_SECONDS" -v lost="${LOST#lost=}" -v stored="$STORED" -v peak="$PEAK_KB" 'BEGIN {
    printf "\n%-52s %12s\n", "", "records/s"
    printf "%-52s %12d\n", "rsyslogd imuxsock -> omfile (reference)", n / r
    printf "%-52s %12d\n", "diagd --syslog-socket -> store, committed", n / s
    printf "%-52s %12d\n", "diagd own socket (NDJSON) -> store, committed", n / j
    printf "%-52s %12d\n", "diagd --otlp-http (protobuf, 512/POST) -> committed", n / o
    printf "%-52s %12d\n", "OpenTelemetry Python SDK -> diagd --otlp-http (" sdkn ")", sdkn / sdk
    printf "ratio diagd syslog / rsyslog imuxsock: %.2f; diagd syslog / diagd NDJSON: %.2f\n", r / s, j / s
    printf "ratio diagd OTLP / rsyslog imuxsock: %.2f; diagd OTLP / diagd NDJSON: %.2f\n", r / o, j / o
    printf "syslog datagrams lost by diagd: %d; records stored: %d of %d; diagd peak RSS %.1f MiB\n", lost, stored, 3 * n + sdkn, peak / 1024
}'
