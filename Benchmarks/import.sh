#!/bin/sh
# The import engineer's figures, each beside its reference in one run (not a test):
#   JSON decoding of flat records: JSONReader and LogRecord(jsonBytes:) vs Foundation's JSONSerialization
#   syslog import of the loghub Mac log x 250 (500,000 lines) vs splitting the same text into lines with Foundation
#   diag generate of 10 million records vs the 60 s bound
# Compiles DiagModel, DiagImport and DiagGenerator with the bench in one module (swiftc -O), nothing else.
# Usage: Benchmarks/import.sh [json-records, default 1000000] [generated-records, default 10000000]
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/src"
for file in "$repo"/Sources/DiagModel/*.swift "$repo"/Sources/DiagImport/*.swift "$repo"/Sources/DiagGenerator/*.swift; do
    name=$(basename "$(dirname "$file")")-$(basename "$file")
    grep -v '^import DiagModel$' "$file" >"$work/src/$name"
done
swiftc -O -module-name ImportBench "$repo/Benchmarks/ImportBench/main.swift" "$work"/src/*.swift -o "$work/import-bench"
corpus="$repo/Tests/Fixtures/loghub/Mac_2k.log"
"$work/import-bench" "${1:-1000000}" "${2:-10000000}" "$corpus"
