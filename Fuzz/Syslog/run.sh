#!/bin/bash
# Runs the syslog fuzzer for SECONDS (default 60) on Fuzz/Syslog/corpus, building it if needed
# (Fuzz/lib.sh, fuzz_run).
cd "$(dirname "$0")"
source ../lib.sh
fuzz_run syslog-fuzzer "${1:-60}" \
    "../../Sources/DiagIngest/Syslog ../../Sources/DiagIngest/PeerIdentity.swift ../../Sources/DiagIngest/IngestError.swift ../../Sources/DiagModel SyslogFuzzer.swift" \
    -max_len=4096 -dict=syslog.dict
