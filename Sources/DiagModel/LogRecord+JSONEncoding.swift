extension LogRecord {
    /// Writes the record as one JSON object, the fields named as `log show --style ndjson` names them.
    ///
    /// `timestamp` is written in `log`'s form (`2026-11-29 09:40:01.123456+0000`, in `offsetSeconds`),
    /// and `timestampNanoseconds` keeps the exact value; missing fields are left out.
    public func writeJSON(to writer: inout JSONWriter, offsetSeconds: Int = 0) {
        writer.append(raw: "{\"timestamp\":")
        writer.append(string: Timestamp.format(nanoseconds: timestamp, offsetSeconds: offsetSeconds))
        writer.append(raw: ",\"timestampNanoseconds\":")
        writer.append(timestamp)
        writer.append(raw: ",\"messageType\":")
        writer.append(string: messageType.name)
        writer.append(raw: ",\"eventType\":")
        writer.append(string: eventType.name)
        field("process", process, &writer)
        field("processID", processID, &writer)
        field("processImagePath", processImagePath, &writer)
        field("userID", userID, &writer)
        field("sender", sender, &writer)
        field("senderImagePath", senderImagePath, &writer)
        field("subsystem", subsystem, &writer)
        field("category", category, &writer)
        field("threadID", threadID, &writer)
        field("activityIdentifier", activityIdentifier, &writer)
        field("parentActivityIdentifier", parentActivityIdentifier, &writer)
        field("traceID", traceID, &writer)
        writer.append(raw: ",\"eventMessage\":")
        writer.append(string: eventMessage)
        field("formatString", formatString, &writer)
        field("signpostID", signpostID, &writer)
        field("signpostName", signpostName, &writer)
        field("signpostType", signpostType, &writer)
        field("signpostScope", signpostScope, &writer)
        if let metadata {
            writer.append(raw: ",\"metadata\":")
            writer.append(.object(metadata))
        }
        if let receiptTime {
            writer.append(raw: ",\"receiptTime\":")
            writer.append(receiptTime)
        }
        writer.append(raw: "}")
    }

    /// The record as one line of NDJSON, without the newline.
    public func jsonString(offsetSeconds: Int = 0) -> String {
        var writer = JSONWriter()
        writeJSON(to: &writer, offsetSeconds: offsetSeconds)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private func field(_ name: StaticString, _ value: String?, _ writer: inout JSONWriter) {
        guard let value else { return }
        writer.append(raw: ",\"")
        writer.append(raw: name)
        writer.append(raw: "\":")
        writer.append(string: value)
    }

    private func field(_ name: StaticString, _ value: Int64?, _ writer: inout JSONWriter) {
        guard let value else { return }
        writer.append(raw: ",\"")
        writer.append(raw: name)
        writer.append(raw: "\":")
        writer.append(value)
    }
}
