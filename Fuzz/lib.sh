# Sourced by every fuzz target's build.sh and run.sh (Fuzz/ and Fuzz/*/), from the target's own
# folder: what the six targets share.
#
#   fuzz_module NAME [SWIFTC-ARGUMENTS...] [-- FILES...]
#       compiles a module into build/libNAME.a (and its .swiftmodule) with libFuzzer and
#       AddressSanitizer, as SwiftPM would compile it: Sources/NAME's files, or FILES.
#   fuzz_link BINARY SWIFTC-ARGUMENTS...
#       links the harness and the libraries into build/BINARY (lld: gold floods the output with
#       harmless "cannot export local symbol" warnings for ASan).
#   fuzz_c_module NAME
#       compiles Sources/NAME's one C file with clang (ASan, libFuzzer's coverage) into
#       build/NAME.o and writes build/NAME/module.modulemap for the header in Sources/NAME/include,
#       as SwiftPM would make them: then -I build/NAME finds the module for fuzz_module and
#       fuzz_link, and build/NAME.o goes to fuzz_link.
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

fuzz_c_module() {
    local name=$1 headers sources
    headers=("$fuzz_root/Sources/$name/include/"*.h)
    sources=("$fuzz_root/Sources/$name/"*.c)
    if [ ${#headers[@]} -ne 1 ] || [ ${#sources[@]} -ne 1 ] || [ ! -f "${headers[0]}" ] || [ ! -f "${sources[0]}" ]; then
        echo "fuzz_c_module $name: expected one header in Sources/$name/include and one C file in Sources/$name" >&2
        return 1
    fi
    mkdir -p "$fuzz_out/$name"
    printf 'module %s {\n    header "%s"\n    export *\n}\n' "$name" "${headers[0]}" >"$fuzz_out/$name/module.modulemap"
    clang -O1 -g -fsanitize=fuzzer-no-link,address -I "$fuzz_root/Sources/$name/include" -c "${sources[0]}" -o "$fuzz_out/$name.o"
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
