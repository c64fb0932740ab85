import DiagModel
import DiagStore

/// RFC 5424 frames written straight from a chunk's row (`RecordColumns.select`'s columns): the
/// column bytes SQLite holds go into the frame, with no `LogRecord` or `String` in between —
/// the forward's hot path. The bytes are those `RFC5424Encoder.appendFrame(for:)` writes for the
/// record the row decodes to (`RecordColumns.decode`): text outside ASCII takes the `String`
/// path, which also repairs invalid UTF-8 as decoding does; a row no record can hold is refused
/// with the same error.
struct RFC5424RowEncoder {
    let encoder: RFC5424Encoder
    /// The message being written, reused from row to row: its length goes before it.
    private var message: [UInt8] = []

    init(encoder: RFC5424Encoder) {
        self.encoder = encoder
        message.reserveCapacity(4096)
    }

    /// Appends the frame of the row `statement` is on to `frames`; throws `ForwardStoreError`
    /// (and appends nothing) for a row no record can hold.
    mutating func appendFrame(row statement: Statement, chunk: String, to frames: inout [UInt8]) throws {
        message.removeAll(keepingCapacity: true)
        let id = statement.int64(at: 0)
        let code = statement.int64(at: 3)
        guard let messageType = MessageType(rawValue: Int(truncatingIfNeeded: code)) else {
            throw ForwardStoreError("\(chunk): record id \(id): column messageType holds \(code); accepted: 0, 1, 2, 16 or 17")
        }
        let eventCode = statement.int64(at: 4)
        guard let eventType = EventType(rawValue: Int(truncatingIfNeeded: eventCode)) else {
            throw ForwardStoreError("\(chunk): record id \(id): column eventType holds \(eventCode); accepted: a code of EventType")
        }
        var metadata: [String: JSONValue]?
        if !statement.isNull(at: 22) {
            do {
                metadata = try statement.withTextBytes(at: 22) { bytes in
                    try JSONReader.parseObject(bytes ?? UnsafeBufferPointer(start: nil, count: 0), maxDepth: 512)
                }
            } catch {
                throw ForwardStoreError("\(chunk): record id \(id): column metadata: \(error)")
            }
        }
        message.append(UInt8(ascii: "<"))
        Digits.append(Int64(encoder.facility * 8 + RFC5424Encoder.severity(of: messageType)), to: &message)
        message.append(contentsOf: ">1 ".utf8)
        encoder.appendTimestamp(statement.int64(at: 1), to: &message)
        message.append(UInt8(ascii: " "))
        message.append(contentsOf: encoder.hostname.utf8)
        message.append(UInt8(ascii: " "))
        let exactProcess = header(statement, 5, maxLength: 48)
        message.append(UInt8(ascii: " "))
        if statement.isNull(at: 6) { message.append(UInt8(ascii: "-")) } else { Digits.append(statement.int64(at: 6), to: &message) }
        message.append(UInt8(ascii: " "))
        let exactCategory = header(statement, 12, maxLength: 32)
        message.append(UInt8(ascii: " "))
        appendStructuredData(statement, process: !exactProcess, category: !exactCategory, eventType: eventType, metadata: metadata)
        statement.withTextBytes(at: 17) { text in
            guard let text, !text.isEmpty else { return }
            message.append(UInt8(ascii: " "))
            if text.contains(where: { $0 >= 0x80 }) {
                message.append(contentsOf: [0xEF, 0xBB, 0xBF])
                var repaired = String(decoding: text, as: UTF8.self)
                repaired.withUTF8 { message.append(contentsOf: $0) }
            } else {
                message.append(contentsOf: text)
            }
        }
        Digits.append(Int64(message.count), to: &frames)
        frames.append(UInt8(ascii: " "))
        frames.append(contentsOf: message)
    }

    /// A header field from a text column; whether it was written unchanged.
    private mutating func header(_ statement: Statement, _ column: Int32, maxLength: Int) -> Bool {
        statement.withTextBytes(at: column) { text in
            guard let text, !text.isEmpty else {
                message.append(UInt8(ascii: "-"))
                return true
            }
            if text.count <= maxLength && text.allSatisfy({ $0 >= 33 && $0 <= 126 }) {
                message.append(contentsOf: text)
                return true
            }
            return RFC5424Encoder.appendHeaderField(String(decoding: text, as: UTF8.self), maxLength: maxLength, to: &message)
        }
    }

    /// `[diag@32473 …]`, in `StructuredDataWriter`'s order.
    private mutating func appendStructuredData(
        _ statement: Statement, process: Bool, category: Bool, eventType: EventType, metadata: [String: JSONValue]?
    ) {
        message.append(UInt8(ascii: "["))
        message.append(contentsOf: RFC5424Encoder.structuredDataID.utf8)
        if process { text("process", statement, 5) }
        if category { text("category", statement, 12) }
        text("subsystem", statement, 11)
        text("sender", statement, 9)
        integer("activity", statement, 14)
        integer("parentActivity", statement, 15)
        integer("thread", statement, 13)
        integer("trace", statement, 16)
        if eventType != .logEvent { StructuredDataWriter.append("eventType", eventType.name, &message) }
        integer("userID", statement, 8)
        text("processImagePath", statement, 7)
        text("senderImagePath", statement, 10)
        text("formatString", statement, 18)
        integer("signpostID", statement, 19)
        text("signpostName", statement, 20)
        text("signpostType", statement, 21)
        if let metadata { StructuredDataWriter.appendMetadata(metadata, &message) }
        message.append(UInt8(ascii: "]"))
    }

    private mutating func text(_ name: StaticString, _ statement: Statement, _ column: Int32) {
        statement.withTextBytes(at: column) { text in
            guard let text else { return }
            if text.contains(where: { $0 >= 0x80 }) {
                StructuredDataWriter.append(name, String(decoding: text, as: UTF8.self), &message)
            } else {
                StructuredDataWriter.appendName(name, &message)
                StructuredDataWriter.appendEscaped(text, &message)
                message.append(UInt8(ascii: "\""))
            }
        }
    }

    private mutating func integer(_ name: StaticString, _ statement: Statement, _ column: Int32) {
        guard !statement.isNull(at: column) else { return }
        StructuredDataWriter.append(name, statement.int64(at: column), &message)
    }
}
