import CSQLite
import DiagModel

extension Statement {
    /// Columns of the current row (indexes start at 0, as in SQLite).
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    public func columnName(at index: Int32) -> String {
        sqlite3_column_name(handle, index).map { String(cString: $0) } ?? ""
    }

    public func isNull(at index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    @inline(__always)
    public func int64(at index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    @inline(__always)
    public func optionalInt64(at index: Int32) -> Int64? {
        sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, index)
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
    /// making a `String`: the bytes are valid only inside `body`.
    @inline(__always)
    public func withTextBytes<Result>(at index: Int32, _ body: (UnsafeBufferPointer<UInt8>?) throws -> Result) rethrows -> Result {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL, let text = sqlite3_column_text(handle, index) else {
            return try body(nil)
        }
        return try body(UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, index))))
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
