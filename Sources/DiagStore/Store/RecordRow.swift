import CSQLite
import DiagModel

/// Reads and writes `LogRecord`s as rows of `records`, by column index (`ChunkSchema.columns`).
enum RecordRow {
    /// Binds every field but `id` to `ChunkSchema.insert`.
    @inline(__always)
    static func bind(_ record: LogRecord, to statement: Statement) throws {
        try statement.bind(record.timestamp, at: 1)
        try statement.bind(record.receiptTime, at: 2)
        try statement.bind(Int64(record.messageType.rawValue), at: 3)
        try statement.bind(Int64(record.eventType.rawValue), at: 4)
        try statement.bind(record.process, at: 5)
        try statement.bind(record.processID, at: 6)
        try statement.bind(record.processImagePath, at: 7)
        try statement.bind(record.userID, at: 8)
        try statement.bind(record.sender, at: 9)
        try statement.bind(record.senderImagePath, at: 10)
        try statement.bind(record.subsystem, at: 11)
        try statement.bind(record.category, at: 12)
        try statement.bind(record.threadID, at: 13)
        try statement.bind(record.activityIdentifier, at: 14)
        try statement.bind(record.parentActivityIdentifier, at: 15)
        try statement.bind(record.traceID, at: 16)
        try statement.bind(record.eventMessage, at: 17)
        try statement.bind(record.formatString, at: 18)
        try statement.bind(record.signpostID, at: 19)
        try statement.bind(record.signpostName, at: 20)
        try statement.bind(record.signpostType, at: 21)
        if let metadata = record.metadata {
            try statement.bind(utf8: MetadataText.encode(metadata), at: 22)
        } else {
            try statement.bindNull(at: 22)
        }
        try statement.bind(record.signpostScope, at: 23)
    }

    /// The row the statement is on, selected with `ChunkSchema.selectColumns` (plus any
    /// columns after them, which are ignored).
    @inline(__always)
    static func decode(_ statement: Statement, chunk: String) throws -> LogRecord {
        let (messageType, eventType) = try types(statement, chunk: chunk)
        var record = LogRecord(
            timestamp: statement.int64(at: 1),
            messageType: messageType,
            eventType: eventType,
            process: statement.optionalString(at: 5),
            processID: statement.optionalInt64(at: 6),
            processImagePath: statement.optionalString(at: 7),
            userID: statement.optionalInt64(at: 8),
            sender: statement.optionalString(at: 9),
            senderImagePath: statement.optionalString(at: 10),
            subsystem: statement.optionalString(at: 11),
            category: statement.optionalString(at: 12),
            threadID: statement.optionalInt64(at: 13),
            activityIdentifier: statement.optionalInt64(at: 14),
            parentActivityIdentifier: statement.optionalInt64(at: 15),
            traceID: statement.optionalInt64(at: 16),
            eventMessage: statement.string(at: 17),
            formatString: statement.optionalString(at: 18),
            signpostID: statement.optionalInt64(at: 19),
            signpostName: statement.optionalString(at: 20),
            signpostType: statement.optionalString(at: 21),
            signpostScope: statement.optionalString(at: 23),
            receiptTime: statement.optionalInt64(at: 2)
        )
        if !statement.isNull(at: 22) {
            do {
                record.metadata = try statement.withUTF8(at: 22) { try MetadataText.decode($0) }
            } catch {
                throw StoreError(.badRecord, path: chunk,
                                 reason: "record id \(statement.int64(at: 0)): column metadata: \(error)")
            }
        }
        return record
    }

    /// The record with only the fields a text style's line shows (`StoredRow.lineRecord()`):
    /// time, level and kind, process and its ID, sender, subsystem, category, thread, activity
    /// and message, checked as `decode` checks them; the others are left out (nil).
    static func decodeLineFields(_ statement: Statement, chunk: String) throws -> LogRecord {
        let (messageType, eventType) = try types(statement, chunk: chunk)
        return LogRecord(
            timestamp: statement.int64(at: 1),
            messageType: messageType,
            eventType: eventType,
            process: statement.optionalString(at: 5),
            processID: statement.optionalInt64(at: 6),
            sender: statement.optionalString(at: 9),
            subsystem: statement.optionalString(at: 11),
            category: statement.optionalString(at: 12),
            threadID: statement.optionalInt64(at: 13),
            activityIdentifier: statement.optionalInt64(at: 14),
            eventMessage: statement.string(at: 17)
        )
    }

    /// The row's `messageType` and `eventType`, refused with the row named when no record holds
    /// such a value.
    @inline(__always)
    static func types(_ statement: Statement, chunk: String) throws -> (MessageType, EventType) {
        let messageType = try self.messageType(statement, chunk: chunk)
        let eventCode = statement.int64(at: 4)
        guard let eventType = EventType(rawValue: Int(truncatingIfNeeded: eventCode)) else {
            throw badValue(statement, chunk, "eventType", eventCode, accepted: "a code of EventType (1024 for logEvent)")
        }
        return (messageType, eventType)
    }

    /// The row's `messageType`, refused with the row named when no record holds such a value.
    @inline(__always)
    static func messageType(_ statement: Statement, chunk: String) throws -> MessageType {
        let code = statement.int64(at: 3)
        guard let messageType = MessageType(rawValue: Int(truncatingIfNeeded: code)) else {
            throw badValue(statement, chunk, "messageType", code, accepted: "0, 1, 2, 16 or 17")
        }
        return messageType
    }

    static func badValue(_ statement: Statement, _ chunk: String, _ column: String, _ value: Int64, accepted: String) -> StoreError {
        StoreError(.badRecord, path: chunk,
                   reason: "record id \(statement.int64(at: 0)): column \(column) holds \(value); accepted: \(accepted)")
    }
}

extension Statement {
    /// Binds UTF-8 bytes as TEXT.
    func bind(utf8 bytes: [UInt8], at index: Int32) throws {
        let code = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                sqlite3_bind_text(handle, index, $0, Int32(buffer.count), csqlite_transient())
            }
        }
        guard code == SQLITE_OK else { throw SQLiteError(code: code, sql: sql) }
    }

    /// Lends the column's UTF-8 bytes without copying them.
    func withUTF8<T>(at index: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        let text = sqlite3_column_text(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        return try body(UnsafeBufferPointer(start: text, count: count))
    }

    /// Lends the column's UTF-8 bytes, or returns nil for NULL without calling `body`
    /// (`RowColumns.withTextBytes`: one call into SQLite less than `isNull` then `withUTF8`),
    /// for writers that read every column of every row.
    func withUTF8IfNotNull<T>(at index: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T? {
        try RowColumns(handle: handle).withTextBytes(at: index) { try $0.map(body) }
    }
}

/// Reading a chunk's `records` rows with a connection of one's own (diagd's forward follower):
/// the columns to select, in the order `decode` reads them, and the decoder the store uses.
public enum ChunkRows {
    public static var selectColumns: String { ChunkSchema.selectColumns }

    /// The record of the row the statement is on; a value no record can hold is refused with
    /// a `StoreError` naming the chunk, the row id and the column.
    public static func decode(_ statement: Statement, chunk: String) throws -> LogRecord {
        try RecordRow.decode(statement, chunk: chunk)
    }
}
