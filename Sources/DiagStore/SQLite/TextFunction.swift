import CSQLite

/// The registration of this process's own SQL functions of text (`diag_contains`,
/// `diag_folded_contains`) on every connection it opens.
enum TextFunction {
    typealias Body = @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void

    /// Registers `body` as `name` of `arguments` arguments, deterministic and innocuous: it
    /// reads its arguments only. A failure leaves the connection without it, and a statement
    /// that names it fails with "no such function".
    static func register(_ name: String, arguments: Int32, on connection: OpaquePointer, _ body: Body) {
        sqlite3_create_function_v2(connection, name, arguments, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nil,
                                   body, nil, nil, nil)
    }

    /// A value's text in UTF-8, as SQLite holds it: `_text` before `_bytes`, as SQLite asks, so
    /// that the count is the text's own.
    static func bytes(_ value: OpaquePointer?) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: sqlite3_value_text(value), count: Int(sqlite3_value_bytes(value)))
    }
}
