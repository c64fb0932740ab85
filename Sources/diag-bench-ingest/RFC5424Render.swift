import DiagForward
import DiagModel
import Foundation

/// The rsyslog side of Benchmarks/ingest.sh: the very records a `load` client sends diagd,
/// pre-rendered as LF-terminated RFC 5424 lines (what imtcp takes), written to a file that the
/// script streams to rsyslogd. Rendering is not timed: rsyslog is measured on receiving alone.
enum RFC5424Render {
    /// `bsd`: RFC 3164 lines instead, as glibc's `syslog()` and `logger` write them
    /// (`<PRI>Mmm dd hh:mm:ss bench diag-bench-ingest[PID]: MESSAGE`, the record's UTC time),
    /// for `FORMAT=rfc3164 Benchmarks/syslog-tcp.sh`.
    static func write(_ records: [LogRecord], seed: Int, to path: String, bsd: Bool = false) throws {
        let encoder = RFC5424Encoder(hostname: "bench", utcOffset: 0)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(records.count * 300)
        for var record in records {
            // What diagd stamps from SO_PEERCRED, so that both sides carry the same fields.
            record.process = "diag-bench-ingest"
            record.processID = Int64(10_000 + seed)
            if bsd {
                appendBSD(record, facility: encoder.facility, to: &bytes)
            } else {
                encoder.appendMessage(for: record, to: &bytes)
            }
            bytes.append(UInt8(ascii: "\n"))
        }
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }

    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func appendBSD(_ record: LogRecord, facility: Int, to bytes: inout [UInt8]) {
        var seconds = time_t(record.timestamp / 1_000_000_000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let pri = facility * 8 + RFC5424Encoder.severity(of: record.messageType)
        let time = String(format: "%@ %2d %02d:%02d:%02d", months[Int(parts.tm_mon)], parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec)
        bytes.append(contentsOf: "<\(pri)>\(time) bench \(record.process ?? "-")[\(record.processID ?? 0)]: ".utf8)
        bytes.append(contentsOf: record.eventMessage.utf8)
    }
}
