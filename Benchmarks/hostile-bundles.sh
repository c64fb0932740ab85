#!/bin/bash
# The hostile run of issue 13: every case of its list built as a bundle a stranger could send
# (Benchmarks/hostile_bundles.py), each through `diag verify` and `diag show` as a user runs
# them, each command with a fresh cache (XDG_CACHE_HOME in a new temporary folder). Per command
# it prints the exit code, wall time, peak RSS, what is left in the cache beside its own
# entries (the index and unpacked bundles), whether stdout or stderr carries a raw control
# character (C0, C1 or DEL other than newline and tab), and whether the bundle's planted
# marker (text only the bundle's own SQL would produce) reached the output. It fails when:
#   - the exit code is not the case's (0 for the good, version-1 and escaped-records bundles,
#     65 for every other; verify exits 0 where only reading the records finds the fault: a value
#     over the record bound) — so never 1, never a signal, never a hang;
#   - a command takes over 20 s or peaks over 128 MiB;
#   - anything but the cache's own entries is left, or anything is written beside the cache;
#   - a raw control character reaches the terminal; the marker appears.
#
# Usage: Benchmarks/hostile-bundles.sh [--small]
#   --small: the cases at the fuzzer seeds' sizes (a 2 MiB bomb instead of 1 GiB, 2,000 missing
#   files instead of 140,000), without the unpacked-folder case.
#   CASES=name,name… runs only those cases (the test, HostileBundlesScriptTests, runs a few).
#   BOUND_SECONDS=N moves the 20 s bound (the test makes it a guard against hangs only: tests
#   check behaviour, not time, and run a debug diag on a shared machine).
#   DIAG=/path/to/diag uses that binary (else a release build of this checkout).
# Needs python3 (its standard library only: the cases' writer and the RSS measure).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
small=()
[ "${1:-}" = "--small" ] && small=(--small)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$repo/Benchmarks/lib.sh"
diag=$(diag_binary "$repo" "$work")
seconds_bound=${BOUND_SECONDS:-20}
rss_bound_kib=$((128 * 1024))
marker=BUNDLE-SQL-WAS-EVALUATED

only=()
[ -n "${CASES:-}" ] && only=(--only "$CASES")
python3 "$repo/Benchmarks/hostile_bundles.py" "$work/cases" "${small[@]}" "${only[@]}" >"$work/cases.tsv"

# run OUT CACHE ENV COMMAND…: runs one command as a user would, in its own cache; writes
# OUT.stdout, OUT.stderr and OUT.measure ("status seconds peak_kib"; status "timeout" after 60 s).
run() {
    local out=$1 cache=$2 extra=$3
    shift 3
    python3 - "$out" "$cache" "$extra" "$@" <<'PY'
import os, subprocess, sys, threading, time
out, cache, extra, command = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
environment = dict(os.environ, XDG_CACHE_HOME=cache)
environment.pop("DIAG_UNPACK_LIMIT", None)
if extra:
    key, value = extra.split("=", 1)
    environment[key] = value
with open(out + ".stdout", "wb") as stdout, open(out + ".stderr", "wb") as stderr:
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=stdout, stderr=stderr, stdin=subprocess.DEVNULL, env=environment)
    timer = threading.Timer(60, process.kill)
    timer.start()
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.monotonic() - start
    timed_out = not timer.is_alive()
    timer.cancel()
code = "timeout" if timed_out else (os.waitstatus_to_exitcode(status))
with open(out + ".measure", "w") as file:
    file.write(f"{code} {elapsed:.2f} {usage.ru_maxrss}\n")
PY
}

# leftovers CACHE: what the cache holds beside its own entries (index/, one folder per unpacked
# bundle named by its SHA-256): temporary folders, or anything an entry wrote there.
leftovers() {
    local bundles=$1/diag/bundles
    [ -d "$bundles" ] || return 0
    find "$bundles" -mindepth 1 -maxdepth 1 ! -name index -printf '%f\n' | grep -vE '^[0-9a-f]{64}$' | paste -sd ' ' - || true
}

# has_control FILE: whether FILE holds a raw C0 (but newline and tab), DEL or C1 (UTF-8 C2 80–9F).
has_control() {
    LC_ALL=C grep -aqP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$1"
}

failures=0
printf '%-20s %-7s %4s %4s %7s %8s  %-8s %-7s %-6s %s\n' case command want exit seconds peak_MiB leftover control marker verdict
while IFS=$'\t' read -r name expected kind what; do
    path="$work/cases/$name"
    [ "$kind" = folder ] || path="$path.tar.gz"
    extra=""
    [[ "$kind" == archive:* ]] && extra=${kind#archive:}
    for command in verify show; do
        want=$expected
        if [[ "$expected" == */* ]]; then
            if [ "$command" = verify ]; then want=${expected%/*}; else want=${expected#*/}; fi
        fi
        cache=$(mktemp -d "$work/cache.XXXXXX")
        out="$work/$name.$command"
        before=$(ls -A "$work" | grep -v '^cache\.' | sort | tr '\n' ' ')
        run "$out" "$cache" "$extra" "$diag" "$command" "$path"
        read -r status seconds peak_kib <"$out.measure"
        after=$(ls -A "$work" | grep -v '^cache\.' | grep -vE "^$name\.$command\.(stdout|stderr|measure)$" | sort | tr '\n' ' ')
        left=$(leftovers "$cache")
        [ "$before" = "$after" ] || left="$left beside-cache:$(comm -13 <(echo "$before" | tr ' ' '\n') <(echo "$after" | tr ' ' '\n') | tr '\n' ' ')"
        control=no
        { has_control "$out.stderr" || has_control "$out.stdout"; } && control=yes
        evaluated=no
        grep -aq "$marker" "$out.stdout" "$out.stderr" && evaluated=yes
        problems=()
        [ "$status" = "$want" ] || problems+=("exit $status, not $want")
        awk -v s="$seconds" -v b="$seconds_bound" 'BEGIN { exit !(s > b) }' && problems+=("over ${seconds_bound} s")
        [ "$peak_kib" -le "$rss_bound_kib" ] || problems+=("over 128 MiB")
        [ -z "${left// /}" ] || problems+=("left: $left")
        [ "$control" = no ] || problems+=("raw control character")
        [ "$evaluated" = no ] || problems+=("the bundle's SQL ran")
        verdict=ok
        if [ ${#problems[@]} -gt 0 ]; then
            verdict="FAIL: $(IFS=';'; echo "${problems[*]}")"
            failures=$((failures + 1))
            head -c 600 "$out.stderr" | cat -v >&2
        fi
        printf '%-20s %-7s %4s %4s %7s %8s  %-8s %-7s %-6s %s\n' "$name" "$command" "$want" "$status" "$seconds" \
            "$((peak_kib / 1024))" "${left:-none}" "$control" "$evaluated" "$verdict"
        rm -rf "$cache"
    done
done <"$work/cases.tsv"
for escape in /tmp/diag-hostile-escape "$work/diag-hostile-escape" "$(dirname "$work")/diag-hostile-escape"; do
    if [ -e "$escape" ]; then echo "FAIL: $escape was written outside the bundle" >&2; failures=$((failures + 1)); fi
done
cases=$(wc -l <"$work/cases.tsv")
echo "$cases cases, $((cases * 2)) commands, $failures failed (bounds: ${seconds_bound} s, 128 MiB; diag: $diag)"
[ "$failures" -eq 0 ]
