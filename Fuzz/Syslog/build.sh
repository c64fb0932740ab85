#!/bin/bash
# Builds Fuzz/Syslog/build/syslog-fuzzer: libFuzzer + AddressSanitizer over DiagModel and the
# files of DiagIngest that read syslog bytes (the framer, both parsers, the row reader and what
# they use), compiled with the harness as one module so that it reaches their internal API as
# diagd does (Fuzz/lib.sh). A file they come to need that is not listed here fails this build:
# add it.
cd "$(dirname "$0")"
source ../lib.sh
fuzz_module DiagModel
ingest="$fuzz_root/Sources/DiagIngest"
fuzz_link syslog-fuzzer -module-name SyslogFuzzer SyslogFuzzer.swift \
    "$ingest"/Syslog/{SyslogStreamFramer,SyslogParser,RFC5424Parser,SyslogMessage,SyslogRecordMapping,SyslogSeverity,SyslogRowReader}.swift \
    "$ingest"/{PeerIdentity,IngestError}.swift "$fuzz_out/libDiagModel.a" -lm
