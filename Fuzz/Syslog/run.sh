#!/bin/bash
# Runs the syslog fuzzer for SECONDS (default 60) on Fuzz/Syslog/corpus, building it if needed.
# New interesting inputs go to Fuzz/Syslog/build/corpus; a crash or a hang (over 10 s) stops the
# run with a non-zero status and leaves the input as Fuzz/Syslog/build/crash-* or timeout-*.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
if [ ! -x build/syslog-fuzzer ] || [ -n "$(find ../../Sources/DiagIngest/Syslog ../../Sources/DiagIngest/PeerIdentity.swift ../../Sources/DiagIngest/IngestError.swift ../../Sources/DiagModel SyslogFuzzer.swift -newer build/syslog-fuzzer -print -quit)" ]; then
    ./build.sh
fi
mkdir -p build/corpus
# swift-backtrace can hang after a crash instead of exiting; libFuzzer reports crashes itself.
export SWIFT_BACKTRACE=enable=no
exec build/syslog-fuzzer build/corpus corpus -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=4096 -dict=syslog.dict -artifact_prefix=build/ -print_final_stats=1
