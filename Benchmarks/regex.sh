#!/bin/bash
# MATCHES on the linear engine beside the same query on ICU, through `diag show` on a generated
# NDJSON file, in one run, as ratios (issue 13 item 5).
#
#   1. automaton  ".*conflict.*[0-9]+"              the byte automaton, then the linear engine
#   2. linear     ".*(conflict|conflicted).*[0-9]+" groups and alternation: the linear engine
# each beside its ICU twin, the same pattern with the digits in an atomic group `(?>[0-9]+)`
# (same records: an atomic run of digits that must reach the end takes them all either way),
# which the linear engine leaves to ICU: what every pattern ran on before. The script checks
# that both sides print the same number of lines.
#
# Usage: Benchmarks/regex.sh [COUNT]     (default 200000)
#   DIAG=/path/to/diag uses that binary instead of building a release one.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
count=${1:-200000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$repo/Benchmarks/lib.sh"
diag=$(diag_binary "$repo" "$work")
"$diag" generate --count "$count" --output "$work/records.ndjson"

# The best of three runs of `diag show --style compact FILE --predicate P`, in seconds; the line count in $work/lines.
best() {
    local best=""
    for _ in 1 2 3; do
        local start end
        start=$(date +%s.%N)
        "$diag" show --style compact --predicate "$1" "$work/records.ndjson" > "$work/out"
        end=$(date +%s.%N)
        best=$(python3 -c 'import sys; t=float(sys.argv[2])-float(sys.argv[1]); b=sys.argv[3]; print(t if not b or t < float(b) else b)' "$start" "$end" "$best")
    done
    wc -l < "$work/out" > "$work/lines"
    echo "$best"
}

echo "records: $count"
names=(automaton linear)
linear_patterns=('.*conflict.*[0-9]+' '.*(conflict|conflicted).*[0-9]+')
icu_patterns=('.*conflict.*(?>[0-9]+)' '.*(conflict|conflicted).*(?>[0-9]+)')
for i in 0 1; do
    t_linear=$(best "eventMessage MATCHES \"${linear_patterns[$i]}\""); n_linear=$(cat "$work/lines")
    t_icu=$(best "eventMessage MATCHES \"${icu_patterns[$i]}\""); n_icu=$(cat "$work/lines")
    [ "$n_linear" = "$n_icu" ] || { echo "${names[$i]}: $n_linear lines beside ICU's $n_icu" >&2; exit 1; }
    python3 -c 'import sys; n,a,b,l=sys.argv[1:]; print(f"{n:10} {float(a):.3f} s   ICU {float(b):.3f} s   ratio {float(a)/float(b):.2f}   ({l} lines)")' \
        "${names[$i]}" "$t_linear" "$t_icu" "$n_linear"
done
