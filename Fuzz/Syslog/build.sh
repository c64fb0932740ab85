#!/bin/bash
# Builds Fuzz/Syslog/build/syslog-fuzzer: libFuzzer + AddressSanitizer over DiagModel and the
# files of DiagIngest that read syslog bytes (the framer, both parsers, the row reader and what
# they use), compiled with the harness as one module so that it reaches their internal API as
# diagd does. A file they come to need that is not listed here fails this build: add it.
set -euo pipefail
cd "$(dirname "$0")"
root=../..
out=build
mkdir -p "$out"
flags=(-O -g -parse-as-library -sanitize=fuzzer,address -swift-version 6)
swiftc "${flags[@]}" -emit-library -static -module-name DiagModel -emit-module-path "$out/DiagModel.swiftmodule" \
    $(find "$root/Sources/DiagModel" -name '*.swift') -o "$out/libDiagModel.a"
ingest="$root/Sources/DiagIngest"
swiftc "${flags[@]}" -use-ld=lld -I "$out" -module-name SyslogFuzzer SyslogFuzzer.swift \
    "$ingest"/Syslog/{SyslogStreamFramer,SyslogParser,RFC5424Parser,SyslogMessage,SyslogRecordMapping,SyslogSeverity,SyslogRowReader}.swift \
    "$ingest"/{PeerIdentity,IngestError}.swift \
    "$out/libDiagModel.a" -lm -o "$out/syslog-fuzzer"
echo "built $(pwd)/$out/syslog-fuzzer"
