"""Logs through Python's `logging` into the OpenTelemetry SDK, which exports them with its
OTLP/HTTP exporter (protobuf) to OTEL_EXPORTER_OTLP_LOGS_ENDPOINT, as an application would.
Exits 1 when the SDK could not export everything (flush failed or timed out)."""
import logging
import sys

from opentelemetry import trace
from opentelemetry._logs import set_logger_provider
from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter
from opentelemetry.sdk._logs import LoggerProvider, LoggingHandler
from opentelemetry.sdk._logs.export import SimpleLogRecordProcessor
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider

failures = []


class CheckedExporter(OTLPLogExporter):
    def export(self, batch):
        result = super().export(batch)
        if result.name != "SUCCESS":
            failures.append(result.name)
        return result


provider = LoggerProvider(resource=Resource.create({"deployment.environment": "test"}))
provider.add_log_record_processor(SimpleLogRecordProcessor(CheckedExporter()))
set_logger_provider(provider)
trace.set_tracer_provider(TracerProvider())

log = logging.getLogger("com.example.notifier.push")
log.setLevel(logging.DEBUG)
log.addHandler(LoggingHandler(level=logging.DEBUG, logger_provider=provider))
log.propagate = False

log.debug("debug detail")
log.info("device subscribed", extra={"topic": "sync", "attempt": 2})
log.warning("push slow")
with trace.get_tracer("notifier").start_as_current_span("deliver") as span:
    context = span.get_span_context()
    log.error("push lost for device %s", "B", extra={"device": "B"})
    print(f"{context.trace_id:032x} {context.span_id:016x}")
log.critical("notifier giving up")
provider.shutdown()
if failures:
    print(f"export failed: {failures}", file=sys.stderr)
    sys.exit(1)
