#!/usr/bin/env bash
# Ingest throughput with durability: diagd fed by 4 client processes, each sending a sync every
# 5,000 records (and waiting for it), beside rsyslogd (Debian's, started privately: imtcp on
# loopback -> omfile, the same records pre-rendered as RFC 5424 lines, 4 sending processes,
# timed to the last line in its file, no acknowledgements), a bare SQLite insert loop of the
# same records and diagd's store writer alone (`diag-bench-ingest store`: the records packed and
# appended on one thread, no socket), in one run. Prints records/s for each, the ratios, diagd's
# CPU per record (to its last acknowledgement, by thread too, and again once it has sealed and
# indexed the closed chunks) beside the writer alone's, and diagd's peak RSS.
#
#   Benchmarks/ingest.sh [records-per-client]     (default 250000; 4 clients)
#   PERF_DATA=FILE Benchmarks/ingest.sh ...        also records diagd's profile (perf record -g)
#   BEFORE=DIR Benchmarks/ingest.sh ...            then runs DIR/diagd (another build) the same way
#   ROUNDS=N Benchmarks/ingest.sh ...              N rounds of rsyslogd then diagd, each round's
#                                                  ratio printed, then their median: this VM's
#                                                  speed drifts within minutes, so a ratio of two
#                                                  runs side by side says more than either rate
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
PER_CLIENT=${1:-250000}
CLIENTS=4
TOTAL=$((PER_CLIENT * CLIENTS))

build_ingest_tools

WORK=$(mktemp -d /tmp/diag-bench-ingest.XXXXXX)
DIAGD_PID=""
trap cleanup_benchmark EXIT

echo "load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
ROUNDS=${ROUNDS:-1}
for i in $(seq 1 $CLIENTS); do "$BIN/diag-bench-ingest" render --records "$PER_CLIENT" --seed "$i" --output "$WORK/rfc5424-$i.txt"; done

# One rsyslogd run over the rendered lines: sets RSYSLOG_RATE and RSYSLOG_CPU.
run_rsyslog() {
echo "== rsyslogd imtcp -> omfile: $CLIENTS senders x $PER_CLIENT RFC 5424 lines"
RSYSLOG_PORT=$((20000 + RANDOM % 20000))
rm -rf "$WORK/rsyslog"
start_rsyslog "$WORK/rsyslog" 'module(load="imtcp")' "input(type=\"imtcp\" port=\"$RSYSLOG_PORT\" address=\"127.0.0.1\")" \
    'template(name="received" type="string" string="%timestamp:::date-rfc3339% %hostname% %app-name%[%procid%] %msgid% %structured-data% %msg%\n")' \
    "action(type=\"omfile\" file=\"$WORK/rsyslog/messages\" template=\"received\")"
for _ in $(seq 1 100); do (echo -n >"/dev/tcp/127.0.0.1/$RSYSLOG_PORT") 2>/dev/null && break; sleep 0.05; done
RSYSLOG_START=$(date +%s.%N)
for i in $(seq 1 $CLIENTS); do cat "$WORK/rfc5424-$i.txt" >"/dev/tcp/127.0.0.1/$RSYSLOG_PORT" & done
# Timed to the last line in the file, counted as it grows (`wait_for_lines`, Benchmarks/lib.sh).
wait_for_lines "$WORK/rsyslog/messages" "$TOTAL" "$RSYSLOG_PID" || { echo "rsyslogd exited: $(cat "$WORK/rsyslog/stderr")" >&2; exit 1; }
RSYSLOG_END=$(date +%s.%N)
RSYSLOG_CPU=$(awk '{ printf "%.2f", ($14 + $15) / 100 }' "/proc/$RSYSLOG_PID/stat")
kill -TERM "$RSYSLOG_PID"; wait "$RSYSLOG_PID" || true
RSYSLOG_RATE=$(awk -v s="$RSYSLOG_START" -v e="$RSYSLOG_END" -v t="$TOTAL" 'BEGIN { printf "%d", t / (e - s) }')
echo "rsyslogd records=$TOTAL rate=$RSYSLOG_RATE cpu=$RSYSLOG_CPU"
rm -f "$WORK/rsyslog/messages"
}

echo "== bare SQLite insert loop: $TOTAL records, one transaction per 5000"
BARE=$("$BIN/diag-bench-ingest" bare --records "$TOTAL" --database "$WORK/bare.sqlite" --batch 5000)
echo "$BARE"
# A field of a diag-bench-ingest line (`mode records=N seconds=S rate=R … cpu=C`).
field() { sed -E "s/.* $1=([0-9.]+).*/\1/" <<<"$2"; }
BARE_CPU=$(field cpu "$BARE")
BARE_RATE=$(field rate "$BARE")

# diagd's writer without diagd: the same records packed as the connection threads pack them,
# appended to a store with diagd's options on one thread, 18,000 a transaction (diagd's average
# under this load), timed by that thread's CPU: the floor of diagd-writer's CPU per record below.
echo "== diagd's store writer alone: $TOTAL records, one transaction per 18000, one thread, no socket"
ALONE=$("$BIN/diag-bench-ingest" store --records "$TOTAL" --store "$WORK/alone" --batch 18000)
echo "$ALONE"
rm -rf "$WORK/alone"
ALONE_CPU=$(field cpu "$ALONE")
ALONE_RATE=$(field rate "$ALONE")

# One diagd run from the binaries in $1 (its label $2): sets the figures the report prints.
run_diagd() {
local dir=$1 label=$2
rm -rf "$WORK/store" "$WORK/diagd.sock" "$WORK"/client-*.out
echo "== diagd ($label): $CLIENTS clients x $PER_CLIENT records, sync every 5000"
"$dir/diagd" --store "$WORK/store" --socket "$WORK/diagd.sock" 2>"$WORK/diagd.stderr" &
DIAGD_PID=$!
PERF_PID=""
# perf -p follows only the threads that exist: attached once diagd's workers are running.
if [[ -n "${PERF_DATA:-}" ]]; then sleep 1; perf record -g -o "$PERF_DATA" -p "$DIAGD_PID" 2>"$WORK/perf.stderr" & PERF_PID=$!; fi
for _ in $(seq 1 200); do [[ -S "$WORK/diagd.sock" ]] && break; sleep 0.05; done
START=$(awk -v now="$(date +%s.%N)" 'BEGIN { printf "%.3f", now + 4 }')
PIDS=()
for i in $(seq 1 $CLIENTS); do
    "$BIN/diag-bench-ingest" load --records "$PER_CLIENT" --socket "$WORK/diagd.sock" --seed "$i" --start-at "$START" >"$WORK/client-$i.out" &
    PIDS+=($!)
done
for pid in "${PIDS[@]}"; do wait "$pid"; done
cat "$WORK"/client-*.out
LAST=$(sed -E 's/.*finished=([0-9.]+).*/\1/' "$WORK"/client-*.out | sort -n | tail -1)
# From the first client's first record (a client still making its records at START, on a busy
# machine, starts late; its late start is not diagd's time).
START=$(awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } s = v["finished"] - v["seconds"]; if (NR == 1 || s < first) first = s } END { printf "%.3f", first }' "$WORK"/client-*.out)
# diagd's own counters ({"stats": true} on its socket): how large the writer's transactions were.
STATS=$(python3 -c 'import json, socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(b"{\"stats\": true}\n")
line = s.makefile().readline(); stats = json.loads(line)["stats"]
print(stats["persisted"], stats["transactions"])' "$WORK/diagd.sock")
read -r PERSISTED TRANSACTIONS <<<"$STATS"
CPU=$(awk '{ printf "%.2f", ($14 + $15) / 100 }' "/proc/$DIAGD_PID/stat")
# The same CPU by thread, the threads of one kind added up (diagd-conn-0, -1… as diagd-conn):
# the single writer's share is what bounds the rate once the cores are not all busy.
THREADS=$(for task in "/proc/$DIAGD_PID"/task/*; do
    [[ -r "$task/stat" ]] || continue
    printf '%s %s\n' "$(awk '{ print $14 + $15 }' "$task/stat" 2>/dev/null)" "$(cat "$task/comm" 2>/dev/null)"
done | awk -v total="$TOTAL" '{ name = substr($0, length($1) + 2); sub(/-[0-9]+$/, "", name); ticks[name] += $1 }
    END { for (name in ticks) if (ticks[name] > 0) printf "%s %.2f us, ", name, ticks[name] / 100 * 1e6 / total }' | sed 's/, $//')
# The seals of the closed chunks come after the burst (their indexes, and the copy of their WAL
# into the file, which diagd leaves to the seal): diagd's CPU again once every chunk but the open
# one is sealed and search-indexed (Info.json), for the whole work a record costs. Up to 10 min.
SEALED_AFTER=""
for _ in $(seq 1 1200); do
    if python3 -c 'import json, sys
chunks = json.load(open(sys.argv[1]))["chunks"]
sys.exit(0 if all(c.get("sealed") and c.get("searchIndex") for c in chunks[:-1]) else 1)' "$WORK/store/Info.json" 2>/dev/null; then
        SEALED_AFTER=$(awk -v now="$(date +%s.%N)" -v last="$LAST" 'BEGIN { printf "%.1f", now - last }'); break
    fi
    sleep 0.5
done
SEALED_CPU=$(awk '{ printf "%.2f", ($14 + $15) / 100 }' "/proc/$DIAGD_PID/stat")
# The high-water mark of the whole run, the seals' included.
PEAK_KB=$(awk '/VmHWM/ {print $2}' "/proc/$DIAGD_PID/status")
if [[ -n "$PERF_PID" ]]; then kill -INT "$PERF_PID"; wait "$PERF_PID" || true; fi
kill -TERM "$DIAGD_PID"; wait "$DIAGD_PID"; DIAGD_PID=""
STORED=$(stored_records "$WORK/store" "process <> 'diagd'")
}

# The report of the last run_diagd, labelled $1.
report() {
awk -v label="$1" -v rsyslog="$RSYSLOG_RATE" -v rsyslogcpu="$RSYSLOG_CPU" -v barecpu="$BARE_CPU" -v cpu="$CPU" -v total="$TOTAL" -v start="$START" -v last="$LAST" -v bare="$BARE_RATE" -v alone="$ALONE_RATE" -v alonecpu="$ALONE_CPU" -v peak="$PEAK_KB" -v stored="$STORED" -v persisted="$PERSISTED" -v transactions="$TRANSACTIONS" -v sealedcpu="$SEALED_CPU" -v sealedafter="$SEALED_AFTER" -v threads="$THREADS" 'BEGIN {
    seconds = last - start; rate = total / seconds
    printf "\n%-36s %12s\n", "", "records/s"
    printf "%-36s %12d\n", "rsyslogd imtcp -> omfile, 4 senders", rsyslog
    printf "%-36s %12d\n", "bare SQLite insert loop (1 process)", bare
    printf "%-36s %12d\n", "diagd store writer alone (1 thread)", alone
    printf "%-36s %12d\n", "diagd " label ", 4 clients, sync 5000", rate
    printf "ratio diagd / rsyslogd: %.2f (target >= 1.0)\n", rate / rsyslog
    printf "ratio diagd / bare: %.2f (target >= 0.60); target >= 300000 records/s: %s\n", rate / bare, (rate >= 300000 ? "met" : "NOT met")
    printf "CPU per record: diagd %.2f us (all threads), rsyslogd %.2f us, bare insert loop %.2f us; bare / diagd: %.2f\n", cpu * 1e6 / total, rsyslogcpu * 1e6 / total, barecpu * 1e6 / total, barecpu / cpu
    printf "diagd CPU per record by thread, to the last ack: %s\n", threads
    printf "the store writer alone: %.2f us per record (its thread)\n", alonecpu * 1e6 / total
    if (sealedafter != "") printf "CPU per record with the closed chunks sealed and indexed (%s s after the last ack): diagd %.2f us\n", sealedafter, sealedcpu * 1e6 / total
    else printf "closed chunks not all sealed and indexed 10 min after the last ack: diagd %.2f us of CPU per record by then\n", sealedcpu * 1e6 / total
    printf "diagd peak RSS: %.1f MiB (target < 128 MiB); records stored: %d of %d\n", peak / 1024, stored, total
    printf "diagd writer: %d transactions, %.0f records each on average\n", transactions, persisted / (transactions > 0 ? transactions : 1)
}'
}

RATIOS=()
for round in $(seq 1 "$ROUNDS"); do
    [[ "$ROUNDS" -eq 1 ]] || echo "== round $round of $ROUNDS"
    run_rsyslog
    run_diagd "$BIN" "this checkout"
    report "this checkout"
    RATIOS+=("$(awk -v total="$TOTAL" -v start="$START" -v last="$LAST" -v rsyslog="$RSYSLOG_RATE" 'BEGIN { printf "%.2f", total / (last - start) / rsyslog }')")
    # BEFORE=DIR: the same run with DIR's diagd (another build) after this one, in the same
    # round, for a side-by-side comparison.
    if [[ -n "${BEFORE:-}" ]]; then
        PERF_DATA="" run_diagd "$BEFORE" "BEFORE"
        report "BEFORE ($BEFORE)"
    fi
done
if [[ "$ROUNDS" -gt 1 ]]; then
    printf '%s\n' "${RATIOS[@]}" | sort -n | awk -v rounds="$ROUNDS" '{ r[NR] = $1; list = list (NR > 1 ? ", " : "") $1 }
        END { m = (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
              printf "\ndiagd / rsyslogd in %d rounds (sorted): %s; median %.2f (target >= 1.0)\n", rounds, list, m }'
fi
