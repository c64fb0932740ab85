#!/bin/bash
# Message patterns: grouping accuracy on the loghub samples, and the miner's speed and memory,
# each beside its reference in the same run.
#
#   1. GA per dataset: `diag show --style ndjson --patterns` over each sample's Content column
#      (converted by patterns/grouping_accuracy.py), scored against the ground truth of
#      Tests/Fixtures/loghub/structured (a line counts only when its predicted group is exactly
#      its true group). Beside it Drain and Brain of logparser3 with their per-dataset tuned
#      settings (patterns/reference_parsers.py), in a private venv; diag has one setting.
#      target: mean GA >= 0.95, and at least tuned Drain's on every dataset.
#   2. speed: `diag patterns` against `diag show --style ndjson >/dev/null` over the same store of
#      COUNT generated records, both with --info --debug (every record); records/s of the miner;
#      peak RSS of diag patterns (/usr/bin/time -v).      target: <= 1.5x show, RSS < 64 MiB
#   3. `diag diff` of two bundles of DIFF_COUNT records each against `diag patterns` of both.
#                                                            target: < 2x the two patterns runs
#
# Usage: Benchmarks/patterns.sh [COUNT]      (default 1000000; the issue's figure is at 10000000)
#   WORK=/some/dir keeps generated files, stores, bundles and the venv between runs;
#   DIFF_COUNT=n sizes part 3's two bundles (default COUNT: the issue's diff is of 1M bundles);
#   DIAG=/path/to/diag uses that binary instead of building a release one;
#   NO_REFERENCE=1 skips logparser3 (no PyPI).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
count=${1:-1000000}
diff_count=${DIFF_COUNT:-$count}
[ -x /usr/bin/time ] || { echo "patterns.sh needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "patterns.sh needs python3" >&2; exit 1; }
if [ -n "${WORK:-}" ]; then work=$WORK; mkdir -p "$work"; else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
if [ -n "${DIAG:-}" ]; then
    diag=$DIAG
else
    echo "building diag (release)…" >&2
    swift build -c release --product diag --package-path "$repo" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
    diag="$repo/.build/release/diag"
fi
scorer="$repo/Benchmarks/patterns/grouping_accuracy.py"
structured="$repo/Tests/Fixtures/loghub/structured"

venv_python=""
if [ -z "${NO_REFERENCE:-}" ]; then
    venv="$work/venv"
    if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import logparser' 2>/dev/null; then
        echo "installing logparser3 into a private venv ($venv)…" >&2
        python3 -m venv "$venv" && "$venv/bin/pip" install -q logparser3 >"$work/pip.log" 2>&1 \
            || { echo "logparser3 could not be installed (see $work/pip.log); reference columns left out" >&2; venv=""; }
    fi
    [ -n "$venv" ] && venv_python="$venv/bin/python"
fi

# Wall and CPU (user + system) seconds of one run: on a shared machine the wall time also
# counts the time other processes held the cores, so both are printed.
timed() { /usr/bin/time -f '%e %U %S' "$@" 2>&1 >/dev/null | tail -n 1 | awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }'; }
rss_mib() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }'; }
ratio() { python3 -c 'import sys; print(f"{float(sys.argv[1]) / float(sys.argv[2]):.2f}")' "$1" "$2"; }

echo "== 1. Grouping accuracy (loghub 2k samples; diag: one default setting; Drain, Brain: tuned per dataset)"
printf '%-10s %8s %8s %8s %9s %9s\n' dataset diag drain brain "true grp" "diag grp"
summary=$(mktemp)
for csv in "$structured"/*_2k.log_structured.csv; do
    dataset=$(basename "$csv" _2k.log_structured.csv)
    python3 "$scorer" to-ndjson "$csv" >"$work/$dataset.ndjson"
    "$diag" show --style ndjson --patterns "$work/$dataset.ndjson" >"$work/$dataset.patterns.ndjson"
    read -r ga _lines true_groups predicted_groups < <(python3 "$scorer" score "$csv" "$work/$dataset.patterns.ndjson")
    drain="-"; brain="-"
    if [ -n "$venv_python" ]; then
        read -r _name drain brain < <("$venv_python" "$repo/Benchmarks/patterns/reference_parsers.py" "$dataset" "$csv" "$work/reference")
    fi
    printf '%-10s %8s %8s %8s %9s %9s\n' "$dataset" "$ga" "$drain" "$brain" "$true_groups" "$predicted_groups"
    echo "$ga $drain $brain" >>"$summary"
done
python3 - "$summary" <<'PY'
import sys
rows = [line.split() for line in open(sys.argv[1])]
def mean(column):
    values = [float(row[column]) for row in rows if row[column] != "-"]
    return f"{sum(values) / len(values):.4f}" if len(values) == len(rows) else "-"
print(f"{'mean':<10} {mean(0):>8} {mean(1):>8} {mean(2):>8}   (target: diag >= 0.95)")
PY
rm -f "$summary"

echo "== 2. Speed over one store of $count generated records (--info --debug: every record)"
store="$work/store-$count"
if [ ! -f "$store/Info.json" ]; then
    echo "generating and importing $count records…" >&2
    "$diag" generate --count "$count" --seed 1 --output "$work/records-$count.ndjson"
    "$diag" import --store "$store" "$work/records-$count.ndjson" >/dev/null
fi
read -r show_wall show_cpu < <(timed "$diag" show "$store" --info --debug --style ndjson)
read -r patterns_wall patterns_cpu < <(timed "$diag" patterns "$store" --info --debug)
patterns_rss=$(rss_mib "$diag" patterns "$store" --info --debug)
printf '%-36s %9s %9s\n' "" "wall (s)" "CPU (s)"
printf '%-36s %9s %9s\n' "diag show --style ndjson >/dev/null" "$show_wall" "$show_cpu"
printf '%-36s %9s %9s   %s x show wall, %s x CPU (target <= 1.5)   %s records/s   peak RSS %s MiB (target < 64)\n' \
    "diag patterns" "$patterns_wall" "$patterns_cpu" "$(ratio "$patterns_wall" "$show_wall")" "$(ratio "$patterns_cpu" "$show_cpu")" \
    "$(python3 -c "print(int($count / $patterns_wall))")" "$patterns_rss"

echo "== 3. diag diff of two bundles of $diff_count records each"
for seed in 1 2; do
    bundle_store="$work/store-$diff_count-seed$seed"
    if [ ! -f "$work/bundle-$diff_count-$seed.path" ]; then
        if [ "$seed" = 1 ]; then bundle_store=$work/store-$diff_count; else
            "$diag" generate --count "$diff_count" --seed "$seed" --output "$work/records-$diff_count-$seed.ndjson"
            "$diag" import --store "$bundle_store" "$work/records-$diff_count-$seed.ndjson" >/dev/null
        fi
        mkdir -p "$work/bundles-$seed"
        DIAG_SOCKET="$work/no-daemon.sock" "$diag" collect --store "$bundle_store" --output "$work/bundles-$seed" | tail -n 1 >"$work/bundle-$diff_count-$seed.path"
    fi
done
base=$(cat "$work/bundle-$diff_count-1.path"); target=$(cat "$work/bundle-$diff_count-2.path")
export XDG_CACHE_HOME="$work/cache"
"$diag" stats "$base" >/dev/null; "$diag" stats "$target" >/dev/null   # unpacked once into the cache, as a user's first look does
read -r base_wall base_cpu < <(timed "$diag" patterns "$base")
read -r target_wall target_cpu < <(timed "$diag" patterns "$target")
read -r diff_wall diff_cpu < <(timed "$diag" diff "$base" "$target")
diff_rss=$(rss_mib "$diag" diff "$base" "$target")
both_wall=$(python3 -c "print(f'{$base_wall + $target_wall:.2f}')"); both_cpu=$(python3 -c "print(f'{$base_cpu + $target_cpu:.2f}')")
printf '%-36s %9s %9s\n' "diag patterns BASE + TARGET" "$both_wall" "$both_cpu"
printf '%-36s %9s %9s   %s x wall, %s x CPU (target < 2)   peak RSS %s MiB\n' "diag diff BASE TARGET" "$diff_wall" "$diff_cpu" \
    "$(ratio "$diff_wall" "$both_wall")" "$(ratio "$diff_cpu" "$both_cpu")" "$diff_rss"
