#!/bin/bash
# Builds Fuzz/Bundle/build/bundle-fuzzer: libFuzzer + AddressSanitizer over the path that
# `diag verify` and `diag show BUNDLE` take through an archive: DiagModel, DiagStore, DiagProtocol and the
# DiagBundle files of that path (archive admission, manifest, unpack, chunk check), each compiled
# as its own module as SwiftPM would (Fuzz/lib.sh); CArchive's loader with clang (libarchive is
# the system's, loaded at run time as in diag). The rest of DiagBundle (collect, report,
# summaries) needs DiagQuery and its readers and is left out: none of it runs when a bundle is read.
cd "$(dirname "$0")"
source ../lib.sh
# The files of DiagBundle on the reading path: not those that import DiagQuery, DiagOutput,
# DiagPatterns or DiagPredicate, nor the collect request, the report and the summaries built on them.
bundle_files=()
for file in $(find "$fuzz_root/Sources/DiagBundle" -name '*.swift'); do
    grep -qE '^import (DiagQuery|DiagOutput|DiagPatterns|DiagPredicate)$' "$file" && continue
    [[ "$(basename "$file")" =~ ^(BundleRequest|StoreSelection|ReportPage.*|ReportScript|SummaryJob|StatisticsScan)\.swift$ ]] && continue
    bundle_files+=("$file")
done
fuzz_c_module CArchive
fuzz_c_module CSQLiteAlloc
sqlite=(-I "$fuzz_root/Sources/CSQLite" -I "$fuzz_out/CSQLiteAlloc")
fuzz_module DiagModel
fuzz_module DiagStore "${sqlite[@]}"
fuzz_module DiagProtocol
fuzz_module DiagBundle -I "$fuzz_out/CArchive" "${sqlite[@]}" -- "${bundle_files[@]}"
fuzz_link bundle-fuzzer -I "$fuzz_out/CArchive" "${sqlite[@]}" BundleFuzzer.swift \
    "$fuzz_out/libDiagBundle.a" "$fuzz_out/libDiagStore.a" "$fuzz_out/libDiagProtocol.a" "$fuzz_out/libDiagModel.a" \
    "$fuzz_out/CArchive.o" "$fuzz_out/CSQLiteAlloc.o" -lsqlite3 -ldl -lm
