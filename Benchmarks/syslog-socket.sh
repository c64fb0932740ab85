#!/usr/bin/env bash
# Syslog datagrams on a local socket into diagd --syslog-socket beside Debian's rsyslogd imuxsock
# -> omfile (started privately on a socket of its own, rate limiting off), in one run: the same
# pre-rendered lines from 4 sending processes (`diag-bench-ingest datagrams`: each line one
# datagram on a blocking connected socket, as glibc's syslog() sends; the kernel makes a sender
# wait while the receiver's queue is full). Each figure is records/s from the first send until
# the last record is durable (diagd: read, then committed, answered by a sync; rsyslog: written by
# omfile to its file, not fsynced). Prints diagd's CPU per record, its peak RSS and what it lost.
#
#   Benchmarks/syslog-socket.sh [records-per-sender]   (default 100000; 4 senders)
#   FORMAT=rfc5424 Benchmarks/syslog-socket.sh ...      RFC 5424 lines instead of RFC 3164 (BSD,
#                                                       `<PRI>Mmm dd hh:mm:ss bench diag-bench-ingest[PID]: …`)
#   DIAGD_BASELINE=PATH Benchmarks/syslog-socket.sh ... also runs another diagd binary (an earlier
#                                                       build) under the same load, printed beside
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
PER_SENDER=${1:-100000}
SENDERS=4
TOTAL=$((PER_SENDER * SENDERS))
syslog_format rfc3164
[ -x /usr/sbin/rsyslogd ] || { echo "syslog-socket.sh: /usr/sbin/rsyslogd is missing (make setup installs rsyslog)" >&2; exit 1; }

build_ingest_tools

WORK=$(mktemp -d /tmp/diag-bench-syslog-socket.XXXXXX)
DIAGD_PID=""
RSYSLOG_PID=""
trap cleanup_benchmark EXIT
# Sends every sender's lines to socket $1 at once, and waits for the senders.
send_all() {
    local socket=$1 i pids=()
    for i in $(seq 1 $SENDERS); do "$BIN/diag-bench-ingest" datagrams --input "$WORK/lines-$i.txt" --socket "$socket" >/dev/null & pids+=($!); done
    for i in "${pids[@]}"; do wait "$i"; done
}

echo "load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq 1 $SENDERS); do "$BIN/diag-bench-ingest" render --records "$PER_SENDER" --seed "$i" --format "$FORMAT" --output "$WORK/lines-$i.txt"; done
echo "lines: $FORMAT, e.g. $(head -c 160 "$WORK/lines-1.txt" | head -n 1)"

echo "== rsyslogd imuxsock -> omfile: $SENDERS senders x $PER_SENDER datagrams"
start_rsyslog "$WORK/rsyslog" 'module(load="imuxsock" SysSock.Use="off")' \
    "input(type=\"imuxsock\" Socket=\"$WORK/rsyslog/log\" RateLimit.Interval=\"0\")" "action(type=\"omfile\" file=\"$WORK/rsyslog/messages\")"
for _ in $(seq 100); do [[ -S "$WORK/rsyslog/log" ]] && break; sleep 0.05; done
START=$(date +%s.%N)
send_all "$WORK/rsyslog/log"
wait_for_lines "$WORK/rsyslog/messages" "$TOTAL" "$RSYSLOG_PID" || { echo "rsyslogd exited: $(cat "$WORK/rsyslog/stderr")" >&2; exit 1; }
END=$(date +%s.%N)
RSYSLOG_CPU=$(awk '{ printf "%.2f", ($14 + $15) / 100 }' "/proc/$RSYSLOG_PID/stat")
kill -TERM "$RSYSLOG_PID"; wait "$RSYSLOG_PID" || true; RSYSLOG_PID=""
RSYSLOG_RATE=$(awk -v s="$START" -v e="$END" -v t="$TOTAL" 'BEGIN { printf "%d", t / (e - s) }')

# Runs one diagd binary ($1) under the load; prints "rate cpu peak_kb stored lost".
run_diagd() {
    local diagd=$1 pid start end peak cpu stored lost
    rm -rf "$WORK/store" "$WORK/diagd.sock" "$WORK/log"
    "$diagd" --store "$WORK/store" --socket "$WORK/diagd.sock" --syslog-socket "$WORK/log" 2>"$WORK/diagd.stderr" &
    pid=$!
    DIAGD_PID=$pid
    for _ in $(seq 1 200); do [[ -S "$WORK/diagd.sock" && -S "$WORK/log" ]] && break; sleep 0.05; done
    start=$(date +%s.%N)
    send_all "$WORK/log"
    lost=$(python3 Benchmarks/syslog_sender.py wait-diagd "$WORK/diagd.sock" "$TOTAL")
    end=$(date +%s.%N)
    peak=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
    cpu=$(awk '{ printf "%.2f", ($14 + $15) / 100 }' "/proc/$pid/stat")
    kill -TERM "$pid"; wait "$pid"; DIAGD_PID=""
    stored=$(stored_records "$WORK/store" "process <> 'diagd'")
    awk -v s="$start" -v e="$end" -v t="$TOTAL" -v cpu="$cpu" -v peak="$peak" -v stored="$stored" -v lost="$lost" \
        'BEGIN { printf "%d %s %d %d %s\n", t / (e - s), cpu, peak, stored, lost }'
}

echo "== diagd --syslog-socket: $SENDERS senders x $PER_SENDER datagrams"
read -r RATE CPU PEAK_KB STORED LOST < <(run_diagd "$BIN/diagd")
BASELINE_LINE=""
if [[ -n "${DIAGD_BASELINE:-}" ]]; then
    echo "== the same with DIAGD_BASELINE=$DIAGD_BASELINE"
    read -r B_RATE B_CPU _ B_STORED _ < <(run_diagd "$DIAGD_BASELINE")
    BASELINE_LINE="$B_RATE $B_CPU $B_STORED"
fi

awk -v rsyslog="$RSYSLOG_RATE" -v rsyslogcpu="$RSYSLOG_CPU" -v rate="$RATE" -v cpu="$CPU" -v total="$TOTAL" \
    -v peak="$PEAK_KB" -v stored="$STORED" -v lost="$LOST" -v baseline="$BASELINE_LINE" 'BEGIN {
    printf "\n%-44s %12s\n", "", "records/s"
    printf "%-44s %12d\n", "rsyslogd imuxsock -> omfile (not fsynced)", rsyslog
    printf "%-44s %12d\n", "diagd --syslog-socket (committed)", rate
    if (baseline != "") {
        split(baseline, b, " ")
        printf "%-44s %12d\n", "DIAGD_BASELINE --syslog-socket (committed)", b[1]
    }
    printf "ratio diagd / rsyslogd: %.2f\n", rate / rsyslog
    if (baseline != "") printf "ratio diagd / DIAGD_BASELINE: %.2f (CPU per record %.2f us vs %.2f us; stored %d of %d)\n", rate / b[1], cpu * 1e6 / total, b[2] * 1e6 / total, b[3], total
    printf "CPU per record: diagd %.2f us (all threads), rsyslogd %.2f us\n", cpu * 1e6 / total, rsyslogcpu * 1e6 / total
    printf "diagd peak RSS: %.1f MiB; records stored: %d of %d (%s)\n", peak / 1024, stored, total, lost
}'
