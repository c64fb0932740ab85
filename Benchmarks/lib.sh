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
