import DiagModel

extension OTLPLogsEncoder {
    /// One OTLP `LogRecord`. The process fields are on the resource and the subsystem is the
    /// scope, so they are not repeated here; every other field present becomes a field or an
    /// attribute.
    func appendLogRecord(_ record: LogRecord, to writer: inout JSONWriter) {
        writer.append(raw: "{")
        // fixed64 cannot hold an instant before 1970: such a time is left unset (unknown), and
        // the exact value stays in diag.timestamp.
        var timeKnown = false
        if record.timestamp >= 0 {
            writer.append(raw: "\"timeUnixNano\":\"")
            writer.append(record.timestamp)
            writer.append(raw: "\",")
            timeKnown = true
        }
        // Imported records were never received by diagd: their observed time is their time.
        let observed = record.receiptTime ?? record.timestamp
        if observed >= 0 {
            writer.append(raw: "\"observedTimeUnixNano\":\"")
            writer.append(observed)
            writer.append(raw: "\",")
        }
        writer.append(raw: "\"severityNumber\":")
        writer.append(Self.severityNumber(of: record.messageType))
        writer.append(raw: ",\"severityText\":")
        writer.append(string: record.messageType.name)
        writer.append(raw: ",\"body\":{\"stringValue\":")
        writer.append(string: record.eventMessage)
        writer.append(raw: "},\"attributes\":[")
        var attributes = OTLPAttributeList()
        attributes.int("diag.timestamp", timeKnown ? nil : record.timestamp, to: &writer)
        attributes.string("diag.event_type", record.eventType.name, to: &writer)
        attributes.string("diag.category", record.category, to: &writer)
        attributes.string("diag.sender", record.sender, to: &writer)
        attributes.string("diag.sender_image_path", record.senderImagePath, to: &writer)
        attributes.int("thread.id", record.threadID, to: &writer)
        attributes.int("diag.activity_id", record.activityIdentifier, to: &writer)
        attributes.int("diag.parent_activity_id", record.parentActivityIdentifier, to: &writer)
        attributes.int("diag.trace_id", record.traceID, to: &writer)
        attributes.string("diag.format_string", record.formatString, to: &writer)
        attributes.int("diag.signpost_id", record.signpostID, to: &writer)
        attributes.string("diag.signpost_name", record.signpostName, to: &writer)
        attributes.string("diag.signpost_type", record.signpostType, to: &writer)
        attributes.string("diag.signpost_scope", record.signpostScope, to: &writer)
        attributes.value("diag.metadata", record.metadata.map(JSONValue.object), to: &writer)
        writer.append(raw: "]")
        if let trace = record.traceID, trace != 0 {
            // A 64-bit trace id is left-padded to OTLP's 16 bytes, as W3C trace context does.
            writer.append(raw: ",\"traceId\":\"0000000000000000")
            Self.appendHex(trace, to: &writer)
            writer.append(raw: "\"")
            if let activity = record.activityIdentifier, activity != 0 {
                writer.append(raw: ",\"spanId\":\"")
                Self.appendHex(activity, to: &writer)
                writer.append(raw: "\"")
            }
        }
        writer.append(raw: "}")
    }

    /// Sixteen lowercase hex digits of the value's two's-complement bits.
    static func appendHex(_ value: Int64, to writer: inout JSONWriter) {
        let bits = UInt64(bitPattern: value)
        let digits: StaticString = "0123456789abcdef"
        for shift in stride(from: 60, through: 0, by: -4) {
            writer.bytes.append(digits.utf8Start[Int((bits >> UInt64(shift)) & 0xF)])
        }
    }
}
