#!/bin/bash
# Builds Fuzz/Bundle/build/bundle-fuzzer: libFuzzer + AddressSanitizer over the path that
# `diag verify` and `diag show BUNDLE` take through an archive: DiagModel, DiagStore, DiagProtocol and the
# DiagBundle files of that path (archive admission, manifest, unpack, chunk check), each compiled
# as its own module as SwiftPM would; CArchive's loader with clang (libarchive is the system's,
# loaded at run time as in diag). The rest of DiagBundle (collect, report, summaries) needs
# DiagQuery and its readers and is left out: none of it runs when a bundle is read.
set -euo pipefail
cd "$(dirname "$0")"
root=../..
out=build
mkdir -p "$out/CArchive"
flags=(-O -g -parse-as-library -sanitize=fuzzer,address -swift-version 6)
# The files of DiagBundle on the reading path: not those that import DiagQuery, DiagOutput,
# DiagPatterns or DiagPredicate, nor the collect request, the report and the summaries built on them.
bundle_files=()
for file in $(find "$root/Sources/DiagBundle" -name '*.swift'); do
    grep -qE '^import (DiagQuery|DiagOutput|DiagPatterns|DiagPredicate)$' "$file" && continue
    [[ "$(basename "$file")" =~ ^(BundleRequest|StoreSelection|ReportPage.*|ReportScript|SummaryJob|StatisticsScan)\.swift$ ]] && continue
    bundle_files+=("$file")
done
cat >"$out/CArchive/module.modulemap" <<MAP
module CArchive {
    header "$(cd "$root/Sources/CArchive/include" && pwd)/CArchive.h"
    export *
}
MAP
clang -O1 -g -fsanitize=fuzzer-no-link,address -I "$root/Sources/CArchive/include" -c "$root/Sources/CArchive/loader.c" \
    -o "$out/carchive-loader.o"
swiftc "${flags[@]}" -emit-library -static -module-name DiagModel -emit-module-path "$out/DiagModel.swiftmodule" \
    $(find "$root/Sources/DiagModel" -name '*.swift') -o "$out/libDiagModel.a"
swiftc "${flags[@]}" -emit-library -static -module-name DiagStore -emit-module-path "$out/DiagStore.swiftmodule" \
    -I "$out" -I "$root/Sources/CSQLite" $(find "$root/Sources/DiagStore" -name '*.swift') -o "$out/libDiagStore.a"
swiftc "${flags[@]}" -emit-library -static -module-name DiagProtocol -emit-module-path "$out/DiagProtocol.swiftmodule" -I "$out" \
    $(find "$root/Sources/DiagProtocol" -name '*.swift') -o "$out/libDiagProtocol.a"
swiftc "${flags[@]}" -emit-library -static -module-name DiagBundle -emit-module-path "$out/DiagBundle.swiftmodule" \
    -I "$out" -I "$out/CArchive" -I "$root/Sources/CSQLite" "${bundle_files[@]}" -o "$out/libDiagBundle.a"
swiftc "${flags[@]}" -use-ld=lld -I "$out" -I "$out/CArchive" -I "$root/Sources/CSQLite" BundleFuzzer.swift \
    "$out/libDiagBundle.a" "$out/libDiagStore.a" "$out/libDiagProtocol.a" "$out/libDiagModel.a" "$out/carchive-loader.o" -lsqlite3 -ldl -lm \
    -o "$out/bundle-fuzzer"
echo "built $(pwd)/$out/bundle-fuzzer"
