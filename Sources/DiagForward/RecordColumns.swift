import DiagModel
import DiagStore

/// The `records` columns of a chunk (docs/STORE.md) as the follower selects and decodes them.
enum RecordColumns {
    static let select = """
        id, timestamp, receiptTime, messageType, eventType, process, processID, processImagePath, userID, \
        sender, senderImagePath, subsystem, category, threadID, activityIdentifier, parentActivityIdentifier, \
        traceID, eventMessage, formatString, signpostID, signpostName, signpostType, metadata
        """

    /// The row the statement is on; a value no record can hold is refused with the chunk and id.
    static func decode(_ statement: Statement, chunk: String) throws -> LogRecord {
        let id = statement.int64(at: 0)
        let code = statement.int64(at: 3)
        guard let messageType = MessageType(rawValue: Int(truncatingIfNeeded: code)) else {
            throw ForwardStoreError("\(chunk): record id \(id): column messageType holds \(code); accepted: 0, 1, 2, 16 or 17")
        }
        let eventCode = statement.int64(at: 4)
        guard let eventType = EventType(rawValue: Int(truncatingIfNeeded: eventCode)) else {
            throw ForwardStoreError("\(chunk): record id \(id): column eventType holds \(eventCode); accepted: a code of EventType")
        }
        var record = LogRecord(
            timestamp: statement.int64(at: 1), messageType: messageType, eventType: eventType,
            process: statement.optionalString(at: 5), processID: statement.optionalInt64(at: 6),
            processImagePath: statement.optionalString(at: 7), userID: statement.optionalInt64(at: 8),
            sender: statement.optionalString(at: 9), senderImagePath: statement.optionalString(at: 10),
            subsystem: statement.optionalString(at: 11), category: statement.optionalString(at: 12),
            threadID: statement.optionalInt64(at: 13), activityIdentifier: statement.optionalInt64(at: 14),
            parentActivityIdentifier: statement.optionalInt64(at: 15), traceID: statement.optionalInt64(at: 16),
            eventMessage: statement.string(at: 17), formatString: statement.optionalString(at: 18),
            signpostID: statement.optionalInt64(at: 19), signpostName: statement.optionalString(at: 20),
            signpostType: statement.optionalString(at: 21), receiptTime: statement.optionalInt64(at: 2))
        if !statement.isNull(at: 22) {
            do {
                record.metadata = try statement.withTextBytes(at: 22) { bytes in
                    try JSONReader.parseObject(bytes ?? UnsafeBufferPointer(start: nil, count: 0), maxDepth: 512)
                }
            } catch {
                throw ForwardStoreError("\(chunk): record id \(id): column metadata: \(error)")
            }
        }
        return record
    }
}
