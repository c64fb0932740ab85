import DiagForward
import DiagModel
import Foundation

/// OTLP log records → our records: the inverse of `diag export --format otlp-json`
/// (`OTLPLogsEncoder`), so exported records come back equal; docs/OTLP-RECEIVER.md lists it.
struct OTLPRecordMapping {
    /// A record whose message and metadata pass this many bytes is refused (rejected in the
    /// answer's partial success), as diagd's own socket refuses a line over 1 MiB.
    static let maximumRecordBytes = 1 << 20
    /// The resource attributes that become record fields rather than metadata.
    static let resourceFields: Set<String> = [
        "service.name", "process.executable.name", "process.executable.path", "process.pid", "process.user.id",
    ]

    let localHostName: String

    /// The records of `request`, and one reason per refused record.
    func records(of request: OTLPLogsRequest, now: Int64) -> (records: [LogRecord], sizes: [Int], refused: [String]) {
        var records: [LogRecord] = []
        var sizes: [Int] = []
        var refused: [String] = []
        records.reserveCapacity(request.recordCount)
        for resource in request.resources {
            var base = LogRecord(timestamp: 0, eventMessage: "")
            var resourceMetadata: [String: JSONValue] = [:]
            var serviceName: String?
            for (key, value) in resource.attributes {
                switch key {
                case "service.name": serviceName = value.stringValue
                case "process.executable.name": base.process = value.stringValue
                case "process.executable.path": base.processImagePath = value.stringValue
                case "process.pid": base.processID = value.int64Value
                case "process.user.id": base.userID = value.int64Value
                // A record from this machine need not say so; another machine's name is kept.
                case "host.name" where value.stringValue == localHostName: break
                default: resourceMetadata[key] = value
                }
            }
            // `unknown_service` (and `unknown_service:python3`) is the SDKs' placeholder, not a name.
            if let serviceName, !serviceName.hasPrefix("unknown_service") { base.process = serviceName }
            for scope in resource.scopes {
                base.subsystem = scope.name
                for input in scope.records {
                    do throws(OTLPDecodeError) {
                        var record = base
                        record.metadata = resourceMetadata
                        try fill(&record, from: input, now: now)
                        if record.metadata?.isEmpty == true { record.metadata = nil }
                        let size = record.eventMessage.utf8.count + (record.metadata.map { JSONValue.object($0).encodedSize } ?? 0)
                        guard size <= Self.maximumRecordBytes else {
                            throw OTLPDecodeError("a record of \(size) bytes (message and attributes) is over the \(Self.maximumRecordBytes)-byte limit")
                        }
                        records.append(record)
                        sizes.append(max(input.size, size) + 256)
                    } catch {
                        refused.append(error.description)
                    }
                }
            }
        }
        return (records, sizes, refused)
    }

    private func fill(_ record: inout LogRecord, from input: OTLPLogsRequest.Record, now: Int64) throws(OTLPDecodeError) {
        // An unset time (0) is the observed time, else the receipt time, as OTLP says to read it.
        let time = input.timeUnixNano != 0 ? input.timeUnixNano : input.observedTimeUnixNano
        guard time <= UInt64(Int64.max) else { throw OTLPDecodeError("timeUnixNano \(time) is past the year 2262") }
        record.timestamp = time == 0 ? now : Int64(time)
        record.messageType = Self.messageType(number: input.severityNumber, text: input.severityText)
        if let text = input.severityText, !text.isEmpty, text.lowercased() != record.messageType.name.lowercased() {
            record.metadata?["severityText"] = .string(text)
        }
        switch input.body {
        case .string(let text)?: record.eventMessage = text
        case nil, .null?: record.eventMessage = ""
        case let other?:
            var writer = JSONWriter()
            writer.append(other)
            record.eventMessage = String(decoding: writer.bytes, as: UTF8.self)
        }
        if let name = input.eventName, !name.isEmpty { record.metadata?["eventName"] = .string(name) }
        for (key, value) in input.attributes { apply(key, value, to: &record) }
        if record.traceID == nil, input.traceID.count == 16, input.traceID.contains(where: { $0 != 0 }) {
            record.traceID = Self.int64(input.traceID[8...])
            // A 128-bit id that does not fit our 64-bit traceID is kept whole.
            if input.traceID[..<8].contains(where: { $0 != 0 }) {
                record.metadata?["traceId"] = .string(input.traceID.map { String(format: "%02x", $0) }.joined())
            }
        }
        if record.activityIdentifier == nil, input.spanID.count == 8, input.spanID.contains(where: { $0 != 0 }) {
            record.activityIdentifier = Self.int64(input.spanID[...])
        }
    }

    /// The `diag.*` attributes `diag export` writes go back to their fields; others are metadata.
    private func apply(_ key: String, _ value: JSONValue, to record: inout LogRecord) {
        switch key {
        case "diag.timestamp": if let number = value.int64Value { record.timestamp = number }
        case "diag.event_type": if let type = value.stringValue.flatMap({ EventType(name: $0) }) { record.eventType = type }
        case "diag.category": record.category = value.stringValue
        case "diag.sender": record.sender = value.stringValue
        case "diag.sender_image_path": record.senderImagePath = value.stringValue
        case "thread.id": record.threadID = value.int64Value
        case "diag.activity_id": record.activityIdentifier = value.int64Value
        case "diag.parent_activity_id": record.parentActivityIdentifier = value.int64Value
        case "diag.trace_id": record.traceID = value.int64Value
        case "diag.format_string": record.formatString = value.stringValue
        case "diag.signpost_id": record.signpostID = value.int64Value
        case "diag.signpost_name": record.signpostName = value.stringValue
        case "diag.signpost_type": record.signpostType = value.stringValue
        case "diag.signpost_scope": record.signpostScope = value.stringValue
        case "diag.metadata":
            if case .object(let members) = value {
                record.metadata?.merge(members) { _, exported in exported }
            } else {
                record.metadata?[key] = value
            }
        default: record.metadata?[key] = value
        }
    }

    /// OTLP's SeverityNumber → level: TRACE and DEBUG (1–8) Debug; INFO (9) Info; INFO2–4 and
    /// WARN (10–16) Default; ERROR (17) Error; ERROR2–4 and FATAL (18–24) Fault. Unset (0):
    /// the severity text when it names a level, else Default.
    static func messageType(number: Int64, text: String?) -> MessageType {
        switch number {
        case 1...8: .debug
        case 9: .info
        case 10...16: .default
        case 17: .error
        case 18...24: .fault
        default: text.flatMap { MessageType(name: $0) } ?? .default
        }
    }

    /// Eight big-endian bytes as a two's-complement Int64 (the encoder writes the bits in hex).
    private static func int64(_ bytes: ArraySlice<UInt8>) -> Int64 {
        Int64(bitPattern: bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }
}

extension JSONValue {
    fileprivate var encodedSize: Int {
        var writer = JSONWriter()
        writer.append(self)
        return writer.bytes.count
    }
}
