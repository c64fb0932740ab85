/// Why packed bytes are not the rows `PackedRecords` writes (a bug, never input: the bytes are
/// only ever written by `PackedRecords`).
public struct PackedRecordsError: Error, Sendable, CustomStringConvertible {
    public let row: Int
    public let column: String
    public let reason: String

    public var description: String { "packed row \(row), column \(column): \(reason)" }
}

extension PackedRecords {
    /// The records back, as `LogRecord` values: for readers off the hot path (tests, a record
    /// that live streams want).
    public func records() throws(PackedRecordsError) -> [LogRecord] {
        var records: [LogRecord] = []
        records.reserveCapacity(count)
        var failure: PackedRecordsError?
        forEachRow { row in
            guard failure == nil else { return }
            do throws(PackedRecordsError) {
                records.append(try Self.record(&row, number: records.count))
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return records
    }

    /// The record of the last row appended: for a live stream that wants it as a `LogRecord`.
    public func lastRecord() throws(PackedRecordsError) -> LogRecord? {
        guard count > 0 else { return nil }
        let start = lastRowStart
        return try bytes.withUnsafeBufferPointer { (buffer) throws(PackedRecordsError) in
            var row = Row(buffer: buffer, offset: start)
            return try Self.record(&row, number: count - 1)
        }
    }

    private static func record(_ row: inout Row, number: Int) throws(PackedRecordsError) -> LogRecord {
        var fields = RecordFields.all.makeIterator()
        func next() -> (Value, String) { (row.next(), fields.next()?.name ?? "?") }
        func integer() throws(PackedRecordsError) -> Int64? {
            let (value, name) = next()
            switch value {
            case .null: return nil
            case .integer(let number): return number
            case .text: throw PackedRecordsError(row: number, column: name, reason: "text where an integer belongs")
            }
        }
        func text() throws(PackedRecordsError) -> String? {
            let (value, name) = next()
            switch value {
            case .null: return nil
            case .text(let bytes): return String(decoding: bytes, as: UTF8.self)
            case .integer: throw PackedRecordsError(row: number, column: name, reason: "an integer where text belongs")
            }
        }
        func required<T>(_ value: T?, _ name: String) throws(PackedRecordsError) -> T {
            guard let value else { throw PackedRecordsError(row: number, column: name, reason: "NULL in a NOT NULL column") }
            return value
        }
        let timestamp = try required(try integer(), "timestamp")
        let receiptTime = try integer()
        let typeCode = try required(try integer(), "messageType")
        guard let messageType = MessageType(rawValue: Int(truncatingIfNeeded: typeCode)) else {
            throw PackedRecordsError(row: number, column: "messageType", reason: "no level has the code \(typeCode)")
        }
        let eventCode = try required(try integer(), "eventType")
        guard let eventType = EventType(rawValue: Int(truncatingIfNeeded: eventCode)) else {
            throw PackedRecordsError(row: number, column: "eventType", reason: "no event type has the code \(eventCode)")
        }
        var record = LogRecord(
            timestamp: timestamp, messageType: messageType, eventType: eventType,
            process: try text(), processID: try integer(), processImagePath: try text(), userID: try integer(),
            sender: try text(), senderImagePath: try text(), subsystem: try text(), category: try text(),
            threadID: try integer(), activityIdentifier: try integer(), parentActivityIdentifier: try integer(),
            traceID: try integer(), eventMessage: try required(try text(), "eventMessage"), formatString: try text(),
            signpostID: try integer(), signpostName: try text(), signpostType: try text(), receiptTime: receiptTime)
        let (metadata, _) = next()
        switch metadata {
        case .null: break
        case .integer: throw PackedRecordsError(row: number, column: "metadata", reason: "an integer where a JSON object belongs")
        case .text(let bytes):
            do {
                record.metadata = try JSONReader.parseObject(bytes, maxDepth: 512)
            } catch {
                throw PackedRecordsError(row: number, column: "metadata", reason: error.description)
            }
        }
        record.signpostScope = try text()
        return record
    }
}
