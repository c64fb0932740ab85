# Sourced by every fuzz target's build.sh and run.sh (Fuzz/ and Fuzz/*/), from the target's own
# folder: what the six targets share.
#
#   fuzz_module NAME [SWIFTC-ARGUMENTS...] [-- FILES...]
#       compiles a module into build/libNAME.a (and its .swiftmodule) with libFuzzer and
#       AddressSanitizer, as SwiftPM would compile it: Sources/NAME's files, or FILES.
#   fuzz_link BINARY SWIFTC-ARGUMENTS...
#       links the harness and the libraries into build/BINARY (lld: gold floods the output with
#       harmless "cannot export local symbol" warnings for ASan).
#   fuzz_sqlite_alloc
#       compiles Sources/CSQLiteAlloc (SQLite's per-thread block caches, which DiagStore imports)
#       with clang into build/csqlite-alloc.o and writes its module map under build/CSQLiteAlloc,
#       as SwiftPM would make them; then "${fuzz_sqlite_alloc[@]}" are the arguments that find
#       the module, for fuzz_module and fuzz_link, and build/csqlite-alloc.o goes to fuzz_link.
#   fuzz_run BINARY SECONDS "SOURCES" [LIBFUZZER-OPTIONS...]
#       builds the target (./build.sh) when BINARY is missing or any of SOURCES (paths from the
#       target's folder, space-separated) is newer, then runs it for SECONDS on build/corpus and
#       corpus: new interesting inputs go to build/corpus (the seeds stay as committed); a crash
#       or a hang (-timeout, 10 s unless given) ends the run with a non-zero status and leaves
#       the input as build/crash-* or build/timeout-*.
set -euo pipefail
fuzz_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
fuzz_out=build
fuzz_flags=(-O -g -parse-as-library -sanitize=fuzzer,address -swift-version 6)

fuzz_module() {
    local name=$1; shift
    local arguments=() files=()
    while (($#)) && [[ $1 != -- ]]; do arguments+=("$1"); shift; done
    if (($#)); then shift; files=("$@"); else mapfile -t files < <(find "$fuzz_root/Sources/$name" -name '*.swift'); fi
    mkdir -p "$fuzz_out"
    swiftc "${fuzz_flags[@]}" -emit-library -static -module-name "$name" -emit-module-path "$fuzz_out/$name.swiftmodule" \
        -I "$fuzz_out" "${arguments[@]}" "${files[@]}" -o "$fuzz_out/lib$name.a"
}

fuzz_sqlite_alloc() {
    mkdir -p "$fuzz_out/CSQLiteAlloc"
    cat >"$fuzz_out/CSQLiteAlloc/module.modulemap" <<MAP
module CSQLiteAlloc {
    header "$fuzz_root/Sources/CSQLiteAlloc/include/csqlite_alloc.h"
    export *
}
MAP
    clang -O1 -g -fsanitize=fuzzer-no-link,address -I "$fuzz_root/Sources/CSQLiteAlloc/include" \
        -c "$fuzz_root/Sources/CSQLiteAlloc/alloc.c" -o "$fuzz_out/csqlite-alloc.o"
    fuzz_sqlite_alloc=(-I "$fuzz_out/CSQLiteAlloc")
}

fuzz_link() {
    local binary=$1; shift
    swiftc "${fuzz_flags[@]}" -use-ld=lld -I "$fuzz_out" "$@" -o "$fuzz_out/$binary"
    echo "built $(pwd)/$fuzz_out/$binary"
}

fuzz_run() {
    local binary=$1 seconds=$2 sources=$3; shift 3
    # shellcheck disable=SC2086 # SOURCES is a list of paths without spaces
    if [ ! -x "$fuzz_out/$binary" ] || [ -n "$(find $sources -newer "$fuzz_out/$binary" -print -quit)" ]; then
        ./build.sh
    fi
    mkdir -p "$fuzz_out/corpus"
    # swift-backtrace can hang after a crash instead of exiting; libFuzzer reports crashes itself.
    export SWIFT_BACKTRACE=enable=no
    local timeout=(-timeout=10)
    [[ " $* " == *" -timeout="* ]] && timeout=()
    "$fuzz_out/$binary" "$fuzz_out/corpus" corpus -max_total_time="$seconds" "${timeout[@]}" -rss_limit_mb=2048 \
        -artifact_prefix="$fuzz_out/" -print_final_stats=1 "$@"
}
