import CSQLite
import DiagModel

extension Statement {
    /// The statement's handle for the column readers below, which are inlined into the callers in
    /// other modules (a row's two dozen columns are read per record on the hot paths).
    @usableFromInline var columnHandle: OpaquePointer { handle }

    /// Columns of the current row (indexes start at 0, as in SQLite).
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    public func columnName(at index: Int32) -> String {
        sqlite3_column_name(handle, index).map { String(cString: $0) } ?? ""
    }

    public func isNull(at index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    @inlinable
    public func int64(at index: Int32) -> Int64 {
        RowColumns(handle: columnHandle).int64(at: index)
    }

    /// The column as an integer, nil for NULL (`RowColumns.optionalInt64`).
    @inlinable
    public func optionalInt64(at index: Int32) -> Int64? {
        RowColumns(handle: columnHandle).optionalInt64(at: index)
    }

    public func double(at index: Int32) -> Double {
        sqlite3_column_double(handle, index)
    }

    /// The column as UTF-8 text ("" for NULL).
    @inline(__always)
    public func string(at index: Int32) -> String {
        guard let text = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    @inline(__always)
    public func optionalString(at index: Int32) -> String? {
        sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : string(at: index)
    }

    /// Calls `body` with the column's UTF-8 bytes as SQLite holds them (nil for NULL), without
    /// making a `String`: the bytes are valid only inside `body` (`RowColumns.withTextBytes`).
    @inlinable
    public func withTextBytes<Result>(at index: Int32, _ body: (UnsafeBufferPointer<UInt8>?) throws -> Result) rethrows -> Result {
        try RowColumns(handle: columnHandle).withTextBytes(at: index, body)
    }

    /// Calls `body` with the row the statement is on, for a hot path that reads many of its
    /// columns: one call reaches the statement's handle, then every column is read straight
    /// from SQLite. The view is valid only inside `body`.
    @inlinable
    public func withRowColumns<Result>(_ body: (RowColumns) throws -> Result) rethrows -> Result {
        try body(RowColumns(handle: columnHandle))
    }

    /// The column's blob, nil when it holds another storage class (text, a number, NULL): a
    /// file made elsewhere may hold anything where a blob is expected.
    public func blobIfBlob(at index: Int32) -> [UInt8]? {
        sqlite3_column_type(handle, index) == SQLITE_BLOB ? blob(at: index) : nil
    }

    /// Calls `body` with the column's blob as SQLite holds it, nil when the column holds another
    /// storage class: `blobIfBlob` without the copy, for a loop over many rows. The bytes are
    /// valid only inside `body`.
    public func withBlobIfBlob<Result>(at index: Int32, _ body: (UnsafeRawBufferPointer?) throws -> Result) rethrows -> Result {
        guard sqlite3_column_type(handle, index) == SQLITE_BLOB else { return try body(nil) }
        // `_blob` before `_bytes`, as SQLite asks; an empty blob has no pointer.
        guard let bytes = sqlite3_column_blob(handle, index) else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, index))))
    }

    public func blob(at index: Int32) -> [UInt8] {
        guard let bytes = sqlite3_column_blob(handle, index) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, index))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// The column as a `SQLValue`, whatever its storage class (blobs read as text).
    public func value(at index: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_NULL: .null
        case SQLITE_INTEGER: .int(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: .double(sqlite3_column_double(handle, index))
        default: .text(string(at: index))
        }
    }
}

/// The columns of the row a statement is on (`Statement.withRowColumns`), read through the
/// statement's handle without holding the statement: valid only while the statement is on
/// the row, inside the `withRowColumns` body that made it.
public struct RowColumns {
    @usableFromInline let handle: OpaquePointer

    @usableFromInline init(handle: OpaquePointer) {
        self.handle = handle
    }

    @inlinable
    public func int64(at index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// The column as an integer, nil for NULL. SQLite reads NULL as 0, so only a 0 asks for the
    /// value's type: one call for most values instead of two.
    @inlinable
    public func optionalInt64(at index: Int32) -> Int64? {
        let value = sqlite3_column_int64(handle, index)
        if value != 0 { return value }
        return sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : 0
    }

    /// Calls `body` with the column's UTF-8 bytes as SQLite holds them (nil for NULL): valid
    /// only inside `body`. `sqlite3_column_text` itself tells NULL (a null pointer) from empty
    /// text (a pointer to a zero byte), so no `sqlite3_column_type` goes before it.
    @inlinable
    public func withTextBytes<Result>(at index: Int32, _ body: (UnsafeBufferPointer<UInt8>?) throws -> Result) rethrows -> Result {
        guard let text = sqlite3_column_text(handle, index) else { return try body(nil) }
        return try body(UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, index))))
    }
}
