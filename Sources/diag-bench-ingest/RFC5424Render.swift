import DiagForward
import DiagModel
import Foundation

/// The rsyslog side of Benchmarks/ingest.sh: the very records a `load` client sends diagd,
/// pre-rendered as LF-terminated RFC 5424 lines (what imtcp takes), written to a file that the
/// script streams to rsyslogd. Rendering is not timed: rsyslog is measured on receiving alone.
enum RFC5424Render {
    static func write(_ records: [LogRecord], seed: Int, to path: String) throws {
        let encoder = RFC5424Encoder(hostname: "bench", utcOffset: 0)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(records.count * 300)
        for var record in records {
            // What diagd stamps from SO_PEERCRED, so that both sides carry the same fields.
            record.process = "diag-bench-ingest"
            record.processID = Int64(10_000 + seed)
            encoder.appendMessage(for: record, to: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }
}
