"""The OpenTelemetry Python SDK's own path, for Benchmarks/syslog-otlp.sh: Python `logging`
through the SDK's LoggingHandler and BatchLogRecordProcessor (512 records per export, its
default) to its OTLP/HTTP exporter (protobuf), pointed at OTEL_EXPORTER_OTLP_LOGS_ENDPOINT.
The processor's queue holds every record (the default 2048 would drop what the exporter has not
taken yet), and the clock stops when force_flush returns, every export answered 200 (diagd
answers once committed). Run with the environment Tests/Scripts/otel-venv.sh makes.

  otel_sdk_sender.py COUNT        prints `sent=N seconds=S`; exits 1 when an export failed
"""
import logging
import sys
import time

from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter
from opentelemetry.sdk._logs import LoggerProvider, LoggingHandler
from opentelemetry.sdk._logs.export import BatchLogRecordProcessor

count = int(sys.argv[1])
failures = []


class CheckedExporter(OTLPLogExporter):
    def export(self, batch):
        result = super().export(batch)
        if result.name != "SUCCESS":
            failures.append(result.name)
        return result


provider = LoggerProvider()
provider.add_log_record_processor(BatchLogRecordProcessor(CheckedExporter(), max_queue_size=count + 1, max_export_batch_size=512))
log = logging.getLogger("sync-core")
log.setLevel(logging.INFO)
log.propagate = False
log.addHandler(LoggingHandler(level=logging.INFO, logger_provider=provider))
start = time.time()
for i in range(count):
    log.info("Export batch %d of store 747A4381-44A2-45AD-A66B-ACB8E572F462 uploaded: 4 posts, 6 attachments", i)
flushed = provider.force_flush(timeout_millis=600_000)
seconds = time.time() - start
provider.shutdown()
if failures or not flushed:
    sys.exit("export failed: %s, flushed: %s" % (failures[:3], flushed))
print("sent=%d seconds=%.3f" % (count, seconds))
