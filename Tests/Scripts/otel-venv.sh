#!/bin/sh
# Makes the private Python virtual environment with the OpenTelemetry SDK and its OTLP/HTTP
# exporter (from PyPI) that the OTLP receiver's tests export through: a real client nobody here
# wrote. Prints the environment's python. Fails loudly (exit 1, pip's output) when it cannot be
# made; the tests then fail rather than skip. Several tests may run it at once: a lock serialises them.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="$root/.build/otel-venv"
mkdir -p "$root/.build"
exec 9>"$root/.build/otel-venv.lock"
flock 9
if ! "$venv/bin/python" -c 'import opentelemetry.sdk._logs, opentelemetry.exporter.otlp.proto.http._log_exporter' 2>/dev/null; then
    rm -rf "$venv"
    python3 -m venv "$venv" >&2 || { echo "otel-venv: python3 -m venv failed (Debian: apt-get install python3-venv)" >&2; exit 1; }
    "$venv/bin/pip" install --quiet --disable-pip-version-check \
        'opentelemetry-sdk==1.45.2' 'opentelemetry-exporter-otlp-proto-http==1.45.2' >&2 \
        || { echo "otel-venv: pip could not install the OpenTelemetry SDK from PyPI" >&2; exit 1; }
fi
echo "$venv/bin/python"
