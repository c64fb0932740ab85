import DiagModel

/// Writes the `[diag@32473 name="value" …]` element of an RFC 5424 message: one parameter per
/// record field that is present, values escaped as RFC 5424 §6.3.3 requires (`"`, `\`, `]`).
enum StructuredDataWriter {
    /// The fields the header does not carry; `process` and `category` too when the header had to
    /// change them (non-ASCII, too long).
    static func append(_ record: LogRecord, process: Bool, category: Bool, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "["))
        bytes.append(contentsOf: RFC5424Encoder.structuredDataID.utf8)
        if process { append("process", record.process, &bytes) }
        if category { append("category", record.category, &bytes) }
        append("subsystem", record.subsystem, &bytes)
        append("sender", record.sender, &bytes)
        append("activity", record.activityIdentifier, &bytes)
        append("parentActivity", record.parentActivityIdentifier, &bytes)
        append("thread", record.threadID, &bytes)
        append("trace", record.traceID, &bytes)
        if record.eventType != .logEvent { append("eventType", record.eventType.name, &bytes) }
        append("userID", record.userID, &bytes)
        append("processImagePath", record.processImagePath, &bytes)
        append("senderImagePath", record.senderImagePath, &bytes)
        append("formatString", record.formatString, &bytes)
        append("signpostID", record.signpostID, &bytes)
        append("signpostName", record.signpostName, &bytes)
        append("signpostType", record.signpostType, &bytes)
        append("signpostScope", record.signpostScope, &bytes)
        if let metadata = record.metadata { appendMetadata(metadata, &bytes) }
        bytes.append(UInt8(ascii: "]"))
    }

    /// ` metadata="…"`: the object as JSON text, escaped.
    private static func appendMetadata(_ metadata: [String: JSONValue], _ bytes: inout [UInt8]) {
        var writer = JSONWriter(reservingCapacity: 128)
        writer.append(.object(metadata))
        appendName("metadata", &bytes)
        appendEscaped(writer.bytes, &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    private static func append(_ name: StaticString, _ value: String?, _ bytes: inout [UInt8]) {
        guard var value else { return }
        appendName(name, &bytes)
        value.withUTF8 { appendEscaped($0, &bytes) }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func append(_ name: StaticString, _ value: Int64?, _ bytes: inout [UInt8]) {
        guard let value else { return }
        appendName(name, &bytes)
        Digits.append(value, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// ` name="`
    private static func appendName(_ name: StaticString, _ bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: " "))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "="))
        bytes.append(UInt8(ascii: "\""))
    }

    /// Copies runs without `"`, `\` or `]` whole, and escapes those three.
    private static func appendEscaped(_ value: UnsafeBufferPointer<UInt8>, _ bytes: inout [UInt8]) {
        var runStart = 0
        for index in 0..<value.count {
            let byte = value[index]
            guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "]") else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: value[runStart..<index]))
            bytes.append(UInt8(ascii: "\\"))
            runStart = index
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: value[runStart...]))
    }

    private static func appendEscaped(_ value: [UInt8], _ bytes: inout [UInt8]) {
        value.withUnsafeBufferPointer { appendEscaped($0, &bytes) }
    }
}
