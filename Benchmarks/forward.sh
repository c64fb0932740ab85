#!/usr/bin/env bash
# Forwarding to rsyslog: diagd forwarding a store of N records over RFC 5424/TCP (octet-counted)
# to a real rsyslogd, beside the same rsyslogd receiving the very same frames (captured from
# diagd's forward) from a plain TCP sender that writes them as fast as the socket takes them.
# Both runs are timed from the start until rsyslog has written the N messages. Prints the
# rates and their ratio (target: forwarding >= 0.8x the plain sender).
#
# Two pairs of runs are printed, each with its own ratio and each side's CPU seconds:
# - shared cores: every program on any core, as a local receiver runs. On a 2-core machine
#   rsyslogd alone keeps ~1.7 cores busy, so this ratio mostly measures how much CPU diagd takes
#   from rsyslogd (the sum of both CPUs over 2 cores bounds it), not how fast diagd forwards.
# - separate cores: rsyslogd pinned to CPU 1, the sender (the plain one, or diagd) and this
#   script's poller pinned to CPU 0, as a receiver on another machine runs. It says whether
#   diagd keeps the receiver fed. Run twice (a noisy shared machine), each run printed.
#
#   Benchmarks/forward.sh [records]     (default 300000)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-300000}

swift build -c release --product diagd >/dev/null
swift build -c release --product diag >/dev/null
BIN=$(swift build -c release --show-bin-path)
WORK=$(mktemp -d /tmp/diag-bench-forward.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

echo "== a store of $N generated records"
"$BIN/diag" generate --count "$N" --output "$WORK/records.ndjson"
"$BIN/diag" import --store "$WORK/store" "$WORK/records.ndjson" >/dev/null

python3 - "$BIN" "$WORK" "$N" <<'PY'
import json, os, signal, socket, subprocess, sys, threading, time

BIN, WORK, N = sys.argv[1], sys.argv[2], int(sys.argv[3])
STORE = f"{WORK}/store"

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def wait_port(port, seconds=20):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.02)
    raise SystemExit(f"nothing listens on {port}")

def start_diagd(port, name):
    """diagd forwarding the whole store: its cursor is set before the first record."""
    identifier = json.load(open(f"{STORE}/Info.json"))["identifier"]
    os.makedirs(f"{STORE}/forwarding", exist_ok=True)
    for old in os.listdir(f"{STORE}/forwarding"):
        os.remove(f"{STORE}/forwarding/{old}")
    url = f"rfc5424+tcp://127.0.0.1:{port}"
    cursor = f"{STORE}/forwarding/rfc5424_tcp___127.0.0.1_{port}.cursor.json"
    json.dump({"url": url, "store": identifier, "chunk": 0, "record": 0}, open(cursor, "w"))
    return subprocess.Popen([f"{BIN}/diagd", "--store", STORE, "--socket", f"{WORK}/{name}.sock", "--forward", url],
                            stderr=open(f"{WORK}/{name}.stderr", "w"))

def cpu_seconds(process):
    fields = open(f"/proc/{process.pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

def stop(process):
    process.send_signal(signal.SIGTERM)
    process.wait()

def start_rsyslog(name, cpu=None):
    """rsyslogd on its own configuration; on CPU `cpu` alone when one is given."""
    port = free_port()
    os.makedirs(f"{WORK}/{name}", exist_ok=True)
    output = f"{WORK}/{name}/out.log"
    with open(f"{WORK}/{name}/rsyslog.conf", "w") as conf:
        conf.write(f'''global(workDirectory="{WORK}/{name}")
module(load="imtcp")
input(type="imtcp" port="{port}" address="127.0.0.1")
template(name="short" type="string" string="%pri% %app-name% %procid% %msgid% %msg:1:40%\\n")
if $app-name != "diagd" then action(type="omfile" file="{output}" template="short")
''')
    pin = None if cpu is None else (lambda: os.sched_setaffinity(0, {cpu}))
    process = subprocess.Popen(["/usr/sbin/rsyslogd", "-n", "-f", f"{WORK}/{name}/rsyslog.conf", "-i", f"{WORK}/{name}/rsyslogd.pid"],
                               preexec_fn=pin)
    wait_port(port)
    return process, port, output

def wait_lines(path, count, seconds=600):
    """Blocks until `path` holds `count` lines; returns when that was seen."""
    deadline = time.time() + seconds
    lines, offset = 0, 0
    global first_line
    first_line = None
    while time.time() < deadline:
        if os.path.exists(path):
            with open(path, "rb") as f:
                f.seek(offset)
                data = f.read()
            offset += len(data)
            lines += data.count(b"\n")
            if lines and first_line is None:
                first_line = time.time()
            if lines >= count:
                return time.time()
        time.sleep(0.005)
    raise SystemExit(f"{path}: {lines} of {count} lines after {seconds} s")

# 1. Capture the frames diagd sends (a listener that keeps every byte).
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(1)
capture_port = listener.getsockname()[1]
frames = bytearray()
def receive():
    connection, _ = listener.accept()
    while chunk := connection.recv(1 << 20):
        frames.extend(chunk)
threading.Thread(target=receive, daemon=True).start()
diagd = start_diagd(capture_port, "capture")
start = time.time()
count, position = 0, 0
while count < N:
    time.sleep(0.01)
    available = len(frames)
    while position < available:
        space = frames.find(b" ", position, available)
        if space < 0:
            break
        end = space + 1 + int(frames[position:space])
        if end > available:
            break
        position, count = end, count + 1
capture_seconds = time.time() - start
stop(diagd)
time.sleep(0.3)
data = bytes(frames[:position])
print(f"== captured {count} frames ({len(data)} bytes) from diagd's forward; "
      f"into that bare listener: {N / capture_seconds:,.0f} records/s")

def plain_run(name, cpu=None):
    """A plain TCP sender writes the same frames to rsyslog: seconds, rsyslogd CPU."""
    rsyslog, port, output = start_rsyslog(name, cpu)
    start = time.time()
    with socket.create_connection(("127.0.0.1", port)) as sender:
        sender.sendall(data)
        done = wait_lines(output, N)
    seconds, rsyslog_cpu = done - start, cpu_seconds(rsyslog)
    stop(rsyslog)
    return seconds, rsyslog_cpu

def forward_run(name, cpu=None):
    """diagd forwarding the store to rsyslog: seconds, rsyslogd CPU, diagd CPU."""
    rsyslog, port, output = start_rsyslog(name, cpu)
    start = time.time()
    diagd = start_diagd(port, name)
    done = wait_lines(output, N)
    seconds = done - start
    print(f"(first forwarded line after {first_line - start:.2f} s)")
    rsyslog_cpu, diagd_cpu = cpu_seconds(rsyslog), cpu_seconds(diagd)
    stop(diagd)
    stop(rsyslog)
    return seconds, rsyslog_cpu, diagd_cpu

def report(plain, forward, label):
    (reference, reference_rsyslog_cpu), (seconds, forward_rsyslog_cpu, diagd_cpu) = plain, forward
    reference_rate, forward_rate = N / reference, N / seconds
    print(f"plain TCP sender -> rsyslog:  {N} records in {reference:.2f} s = {reference_rate:,.0f} records/s"
          f"  (rsyslogd CPU {reference_rsyslog_cpu:.2f} s)")
    print(f"diagd --forward  -> rsyslog:  {N} records in {seconds:.2f} s = {forward_rate:,.0f} records/s"
          f"  (rsyslogd CPU {forward_rsyslog_cpu:.2f} s, diagd CPU {diagd_cpu:.2f} s = {diagd_cpu / N * 1e6:.2f} us/record)")
    print(f"ratio forward/plain{label}: {forward_rate / reference_rate:.2f}x (target >= 0.8x)")

# 2. Shared cores: the plain sender, then diagd, each with rsyslogd, all on any core.
print("== shared cores: rsyslogd, the sender and this script on any of the machine's cores")
report(plain_run("reference"), forward_run("forward"), " (shared cores)")

# 3. Separate cores: rsyslogd on CPU 1; this script (the plain sender, the poller) and the diagd
# it starts on CPU 0 (a child process keeps its parent's CPU set).
if len(os.sched_getaffinity(0)) < 2 or not {0, 1} <= os.sched_getaffinity(0):
    print("== separate cores: skipped (this process may not run on CPUs 0 and 1)")
else:
    os.sched_setaffinity(0, {0})
    for run in (1, 2):
        print(f"== separate cores, run {run}: rsyslogd on CPU 1; the sender (plain, or diagd) and the poller on CPU 0")
        report(plain_run(f"reference-pinned-{run}", cpu=1), forward_run(f"forward-pinned-{run}", cpu=1), f" (separate cores, run {run})")
PY
