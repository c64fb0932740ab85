import DiagModel

/// Writes a record as one protocol line (docs/PROTOCOL.md): `timestamp` in nanoseconds, no
/// trusted fields (the daemon takes those from the kernel), a newline at the end.
enum RecordEncoder {
    static func line(_ record: LogRecord) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 256 + record.eventMessage.utf8.count)
        writer.append(raw: "{\"timestamp\":")
        writer.append(record.timestamp)
        writer.append(raw: ",\"messageType\":")
        writer.append(string: record.messageType.name)
        if record.eventType != .logEvent {
            writer.append(raw: ",\"eventType\":")
            writer.append(string: record.eventType.name)
        }
        field("sender", record.sender, &writer)
        field("senderImagePath", record.senderImagePath, &writer)
        field("subsystem", record.subsystem, &writer)
        field("category", record.category, &writer)
        field("threadID", record.threadID, &writer)
        field("activityIdentifier", record.activityIdentifier, &writer)
        field("parentActivityIdentifier", record.parentActivityIdentifier, &writer)
        field("traceID", record.traceID, &writer)
        writer.append(raw: ",\"eventMessage\":")
        writer.append(string: record.eventMessage)
        field("formatString", record.formatString, &writer)
        field("signpostID", record.signpostID, &writer)
        field("signpostName", record.signpostName, &writer)
        field("signpostType", record.signpostType, &writer)
        field("signpostScope", record.signpostScope, &writer)
        if let metadata = record.metadata, !metadata.isEmpty {
            writer.append(raw: ",\"metadata\":")
            writer.append(.object(metadata))
        }
        writer.append(raw: "}\n")
        return writer.bytes
    }

    private static func field(_ name: StaticString, _ value: String?, _ writer: inout JSONWriter) {
        guard let value else { return }
        writer.append(raw: ",\"")
        writer.append(raw: name)
        writer.append(raw: "\":")
        writer.append(string: value)
    }

    private static func field(_ name: StaticString, _ value: Int64?, _ writer: inout JSONWriter) {
        guard let value else { return }
        writer.append(raw: ",\"")
        writer.append(raw: name)
        writer.append(raw: "\":")
        writer.append(value)
    }
}
