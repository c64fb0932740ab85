#!/usr/bin/env bash
# Syslog over TCP (RFC 6587, LF-framed RFC 5424 lines; RFC 3164 with FORMAT=rfc3164) into diagd
# --syslog-tcp beside Debian's rsyslogd imtcp -> omfile (started privately), in one run: the
# same pre-rendered lines from 4 sending processes (cat to /dev/tcp), while 500 more connections
# stay open and idle. Each figure is records/s from the first send until the last record is
# durable (diagd: read, then committed, answered by a sync; rsyslog: written by omfile to its
# file, not fsynced). Prints diagd's threads while it serves the 504 connections (its syslog loop
# serves them all with two workers), its CPU per record and its peak RSS.
#
#   Benchmarks/syslog-tcp.sh [records-per-sender]     (default 100000; 4 senders)
#   DIAGD_BASELINE=PATH Benchmarks/syslog-tcp.sh ...   also runs another diagd binary (an earlier
#                                                      build) under the same load, printed beside
#   FORMAT=rfc3164 Benchmarks/syslog-tcp.sh ...        BSD lines instead, as glibc's syslog() and
#                                                      logger write them (`<PRI>Mmm dd hh:mm:ss
#                                                      bench diag-bench-ingest[PID]: MESSAGE`)
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
PER_SENDER=${1:-100000}
SENDERS=4
IDLE=500
TOTAL=$((PER_SENDER * SENDERS))
syslog_format rfc5424

build_ingest_tools

WORK=$(mktemp -d /tmp/diag-bench-syslog-tcp.XXXXXX)
DIAGD_PID=""
RSYSLOG_PID=""
IDLE_PID=""
trap cleanup_benchmark EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# Holds $IDLE connections to 127.0.0.1:$1 open, sending nothing, until killed.
hold_idle() {
    python3 -c 'import socket, sys, time
held = [socket.create_connection(("127.0.0.1", int(sys.argv[1]))) for _ in range(int(sys.argv[2]))]
print("held=%d" % len(held), flush=True)
time.sleep(3600)' "$1" "$IDLE" >"$WORK/idle.out" &
    IDLE_PID=$!
    for _ in $(seq 1 200); do grep -q held "$WORK/idle.out" 2>/dev/null && break; sleep 0.05; done
}

echo "load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq 1 $SENDERS); do "$BIN/diag-bench-ingest" render --records "$PER_SENDER" --seed "$i" --format "$FORMAT" --output "$WORK/lines-$i.txt"; done
echo "lines: $FORMAT, e.g. $(head -c 160 "$WORK/lines-1.txt" | head -n 1)"

echo "== rsyslogd imtcp -> omfile: $SENDERS senders x $PER_SENDER lines, $IDLE idle connections"
RSYSLOG_PORT=$(free_port)
start_rsyslog "$WORK/rsyslog" 'module(load="imtcp" MaxSessions="1000")' \
    "input(type=\"imtcp\" port=\"$RSYSLOG_PORT\" address=\"127.0.0.1\")" "action(type=\"omfile\" file=\"$WORK/rsyslog/messages\")"
for _ in $(seq 1 100); do (echo -n >"/dev/tcp/127.0.0.1/$RSYSLOG_PORT") 2>/dev/null && break; sleep 0.05; done
hold_idle "$RSYSLOG_PORT"
START=$(date +%s.%N)
for i in $(seq 1 $SENDERS); do cat "$WORK/lines-$i.txt" >"/dev/tcp/127.0.0.1/$RSYSLOG_PORT" & done
wait_for_lines "$WORK/rsyslog/messages" "$TOTAL" "$RSYSLOG_PID" || { echo "rsyslogd exited: $(cat "$WORK/rsyslog/stderr")" >&2; exit 1; }
END=$(date +%s.%N)
RSYSLOG_THREADS=$(ls "/proc/$RSYSLOG_PID/task" | wc -l)
RSYSLOG_CPU=$(awk '{ printf "%.2f", ($14 + $15) / 100 }' "/proc/$RSYSLOG_PID/stat")
kill -TERM "$IDLE_PID"; IDLE_PID=""
kill -TERM "$RSYSLOG_PID"; wait "$RSYSLOG_PID" || true; RSYSLOG_PID=""
RSYSLOG_RATE=$(awk -v s="$START" -v e="$END" -v t="$TOTAL" 'BEGIN { printf "%d", t / (e - s) }')

# Runs one diagd binary ($1) under the load; prints "rate threads cpu peak_kb stored lost".
run_diagd() {
    local diagd=$1 port pid start end threads peak cpu stored lost
    rm -rf "$WORK/store" "$WORK/diagd.sock"
    port=$(free_port)
    "$diagd" --store "$WORK/store" --socket "$WORK/diagd.sock" --syslog-tcp "127.0.0.1:$port" 2>"$WORK/diagd.stderr" &
    pid=$!
    DIAGD_PID=$pid
    for _ in $(seq 1 200); do [[ -S "$WORK/diagd.sock" ]] && break; sleep 0.05; done
    hold_idle "$port"
    start=$(date +%s.%N)
    for i in $(seq 1 $SENDERS); do cat "$WORK/lines-$i.txt" >"/dev/tcp/127.0.0.1/$port" & done
    threads=$(ls "/proc/$pid/task" | wc -l)
    lost=$(python3 Benchmarks/syslog_sender.py wait-diagd "$WORK/diagd.sock" "$TOTAL")
    end=$(date +%s.%N)
    peak=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
    cpu=$(awk '{ printf "%.2f", ($14 + $15) / 100 }' "/proc/$pid/stat")
    kill -TERM "$IDLE_PID"; IDLE_PID=""
    kill -TERM "$pid"; wait "$pid"; DIAGD_PID=""
    # Records over TCP name no process (NULL): counted apart from diagd's own.
    stored=$(stored_records "$WORK/store" "process is not 'diagd'")
    awk -v s="$start" -v e="$end" -v t="$TOTAL" -v threads="$threads" -v cpu="$cpu" -v peak="$peak" -v stored="$stored" -v lost="$lost" \
        'BEGIN { printf "%d %d %s %d %d %s\n", t / (e - s), threads, cpu, peak, stored, lost }'
}

echo "== diagd --syslog-tcp: $SENDERS senders x $PER_SENDER lines, $IDLE idle connections"
read -r RATE THREADS CPU PEAK_KB STORED LOST < <(run_diagd "$BIN/diagd")
BASELINE_LINE=""
if [[ -n "${DIAGD_BASELINE:-}" ]]; then
    echo "== the same with DIAGD_BASELINE=$DIAGD_BASELINE"
    read -r B_RATE B_THREADS B_CPU _ B_STORED _ < <(run_diagd "$DIAGD_BASELINE")
    BASELINE_LINE="$B_RATE $B_THREADS $B_CPU $B_STORED"
fi

awk -v rsyslog="$RSYSLOG_RATE" -v rsyslogcpu="$RSYSLOG_CPU" -v rthreads="$RSYSLOG_THREADS" -v rate="$RATE" -v cpu="$CPU" -v total="$TOTAL" \
    -v peak="$PEAK_KB" -v stored="$STORED" -v threads="$THREADS" -v lost="$LOST" -v idle="$IDLE" -v senders="$SENDERS" -v baseline="$BASELINE_LINE" 'BEGIN {
    printf "\n%-44s %12s %8s\n", "", "records/s", "threads"
    printf "%-44s %12d %8d\n", "rsyslogd imtcp -> omfile (not fsynced)", rsyslog, rthreads
    printf "%-44s %12d %8d\n", "diagd --syslog-tcp (committed)", rate, threads
    if (baseline != "") {
        split(baseline, b, " ")
        printf "%-44s %12d %8d\n", "DIAGD_BASELINE --syslog-tcp (committed)", b[1], b[2]
    }
    printf "connections: %d sending, %d idle\n", senders, idle
    printf "ratio diagd / rsyslogd: %.2f\n", rate / rsyslog
    if (baseline != "") printf "ratio diagd / DIAGD_BASELINE: %.2f (CPU per record %.2f us vs %.2f us; stored %d of %d)\n", rate / b[1], cpu * 1e6 / total, b[3] * 1e6 / total, b[4], total
    printf "CPU per record: diagd %.2f us (all threads), rsyslogd %.2f us\n", cpu * 1e6 / total, rsyslogcpu * 1e6 / total
    printf "diagd peak RSS: %.1f MiB; records stored: %d of %d (%s)\n", peak / 1024, stored, total, lost
}'
