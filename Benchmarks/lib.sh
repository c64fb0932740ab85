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
