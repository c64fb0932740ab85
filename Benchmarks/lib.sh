# Shared by the benchmark scripts: sourced, not run.

# Prints the diag binary to measure: $DIAG if set, else a release build of this checkout (the
# build's output goes to WORK/build.log, shown if the build fails). Usage: diag=$(diag_binary REPO WORK)
diag_binary() {
    local repo=$1 work=$2
    if [ -n "${DIAG:-}" ]; then echo "$DIAG"; return; fi
    echo "building diag (release)…" >&2
    swift build -c release --product diag --package-path "$repo" >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; return 1; }
    echo "$repo/.build/release/diag"
}

# Waits until FILE holds COUNT lines, counting them as the file grows (each byte read once, a
# look every 20 ms while nothing new came); fails if process PID (the writer, e.g. rsyslogd)
# is gone or a zombie first. Usage: wait_for_lines FILE COUNT PID
# The reference servers' output files are timed so. Until 2026-12-06 the scripts ran `wc -l` of
# the whole file every 10-20 ms: up to 200 MB read each time on the cores rsyslogd needed, which
# kept one of this machine's two cores busy and lowered rsyslogd's rate by 8-13 % (Benchmarks/
# ingest.sh's rsyslogd alone, three runs each, alternating: 488,693/536,526/541,349 lines/s with
# `wc -l`, 554,610/609,713/584,448 with this).
wait_for_lines() {
    python3 - "$1" "$2" "$3" <<'PY'
import os, sys, time
path, total, pid = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def alive():  # running, not a zombie waiting for its parent to reap it
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
while not os.path.exists(path):
    if not alive():
        sys.exit(f"process {pid} exited before it wrote {path}")
    time.sleep(0.02)
lines = 0
with open(path, "rb", buffering=0) as output:
    while lines < total:
        data = output.read(1 << 20)
        if data:
            lines += data.count(b"\n")
        elif alive():
            time.sleep(0.02)
        else:
            sys.exit(f"process {pid} exited after {lines} of {total} lines in {path}")
PY
}

# Prints how many records a diagd store's chunk files hold where CONDITION (SQL) holds, read with
# the sqlite3 shell, not diag: every chunk under Persist/, and under Persist/Burst/ those whose
# sealed copy is not in Persist/ yet (a diagd stopped before sealing them). Usage:
# stored_records STORE "process <> 'diagd'"
stored_records() {
    local store=$1 condition=$2 f
    for f in "$store"/Persist/*.chunk.sqlite "$store"/Persist/Burst/*.chunk.sqlite; do
        [[ -e "$f" && ( "$f" != */Burst/* || ! -e "$store/Persist/${f##*/}" ) ]] || continue
        sqlite3 "$f" "select count(*) from records where $condition" 2>/dev/null || echo 0
    done | awk '{ s += $1 } END { print s + 0 }'
}

# Ends what a benchmark started, however the script ends (`trap cleanup_benchmark EXIT`): the
# processes in IDLE_PID, DIAGD_PID and RSYSLOG_PID when set and alive (diagd waited for, so that
# it closes its store), then the scratch folder WORK.
cleanup_benchmark() {
    if [[ -n "${IDLE_PID:-}" ]] && kill -0 "$IDLE_PID" 2>/dev/null; then kill -TERM "$IDLE_PID"; fi
    if [[ -n "${DIAGD_PID:-}" ]] && kill -0 "$DIAGD_PID" 2>/dev/null; then kill -TERM "$DIAGD_PID"; wait "$DIAGD_PID" || true; fi
    if [[ -n "${RSYSLOG_PID:-}" ]] && kill -0 "$RSYSLOG_PID" 2>/dev/null; then kill -TERM "$RSYSLOG_PID"; fi
    if [[ -n "${WORK:-}" ]]; then rm -rf "$WORK"; fi
}

# Starts Debian's rsyslogd privately (in the background, not as a daemon) with DIR/rsyslog.conf:
# its work directory DIR, then the configuration lines given (the input module and input, the
# action writing DIR/messages); its errors go to DIR/stderr. Sets RSYSLOG_PID.
# Usage: start_rsyslog DIR 'module(load="imtcp")' 'input(…)' 'action(type="omfile" …)'
start_rsyslog() {
    local dir=$1; shift
    mkdir -p "$dir"
    { echo "global(workDirectory=\"$dir\")"; printf '%s\n' "$@"; } >"$dir/rsyslog.conf"
    /usr/sbin/rsyslogd -n -f "$dir/rsyslog.conf" -i "$dir/rsyslogd.pid" 2>"$dir/stderr" &
    RSYSLOG_PID=$!
}

# Builds diagd and diag-bench-ingest (release) and sets BIN to the folder they are in.
build_ingest_tools() {
    swift build -c release --product diagd >/dev/null
    swift build -c release --product diag-bench-ingest >/dev/null
    BIN=$(swift build -c release --show-bin-path)
}

# Sets FORMAT, the syslog lines a benchmark renders (rfc5424 or rfc3164), to DEFAULT when unset;
# exits 64 on anything else. Usage: syslog_format DEFAULT
syslog_format() {
    FORMAT=${FORMAT:-$1}
    case "$FORMAT" in rfc5424|rfc3164) ;; *) echo "FORMAT must be rfc5424 or rfc3164, not $FORMAT" >&2; exit 64 ;; esac
}
