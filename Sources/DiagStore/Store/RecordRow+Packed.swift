import CSQLite
import DiagModel

extension RecordRow {
    /// Binds a packed row's columns (`PackedRecords`, in `ChunkSchema.insert`'s order) to the
    /// insert without copying its texts: they stay valid while the batch is lent, and the
    /// caller steps before the next row. Returns the row's timestamp; `message` is set to the
    /// bytes of its `eventMessage` (valid as long as the row's batch is lent).
    @inline(__always)
    static func bind(_ row: inout PackedRecords.Row, to statement: Statement,
                     message: inout UnsafeBufferPointer<UInt8>) throws -> Int64 {
        var timestamp: Int64 = 0
        let messageColumn = Self.messageColumn
        for index in 1...Int32(PackedRecords.columnCount) {
            let code: Int32
            switch row.next() {
            case .null:
                code = sqlite3_bind_null(statement.handle, index)
            case .integer(let value):
                if index == 1 { timestamp = value }
                code = sqlite3_bind_int64(statement.handle, index, value)
            case .text(let bytes):
                if index == messageColumn { message = bytes }
                // SQLITE_STATIC (a nil destructor): SQLite reads the bytes where they are.
                // Never a NULL pointer, which would bind NULL instead of an empty text.
                let base = UnsafeRawPointer(bytes.baseAddress ?? emptyText.utf8Start)
                code = sqlite3_bind_text(statement.handle, index, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)
            }
            guard code == SQLITE_OK else { throw SQLiteError(code: code, sql: statement.sql) }
        }
        return timestamp
    }

    private static let emptyText: StaticString = ""
    /// The insert's parameter that binds `eventMessage` (1-based, `id` not bound).
    private static let messageColumn = Int32(ChunkSchema.columns.firstIndex(of: "eventMessage")!)
}
