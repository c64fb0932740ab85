import CSQLite

/// An error reported by SQLite, in GRDB's form:
/// `SQLite error 19: NOT NULL constraint failed: records.eventMessage - while executing `INSERT …``.
///
/// Bound values are never part of the message: they may hold private log text.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The primary result code (`SQLITE_CONSTRAINT` is 19).
    public var code: Int32 { extendedCode & 0xFF }
    /// The extended result code (`SQLITE_CONSTRAINT_NOTNULL` is 1299).
    public let extendedCode: Int32
    /// SQLite's own message, or the standard text of the code.
    public let message: String
    /// The statement being run, if any.
    public let sql: String?

    public init(code: Int32, message: String? = nil, sql: String? = nil) {
        self.extendedCode = code
        self.message = message ?? String(cString: sqlite3_errstr(code))
        self.sql = sql
    }

    /// The error the connection last reported, with its message.
    init(connection: OpaquePointer?, code: Int32, sql: String? = nil) {
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
        let useExtended = extended & 0xFF == code & 0xFF
        let text = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        self.init(code: useExtended ? extended : code, message: text, sql: sql)
    }

    public var description: String {
        var text = "SQLite error \(code): \(message)"
        // For an I/O error the extended code says which call failed (`SQLITE_IOERR_SHORT_READ` is
        // 522), and SQLite's message ("disk I/O error") does not.
        if code == SQLITE_IOERR, extendedCode != code { text = "SQLite error \(code) (extended \(extendedCode)): \(message)" }
        if let sql { text += " - while executing `\(Self.shortened(sql))`" }
        return text
    }

    /// The statement as an error message shows it: a large predicate's SQL runs to hundreds of KB,
    /// which buried the reason under pages of text; its first part says which statement it was.
    static let shownSQLLength = 300

    /// On one line, too: our statements span lines, and an error of diagd's went to its log as
    /// three entries (`WHERE …` and `PRAGMA …` alone on theirs).
    static func shortened(_ sql: String) -> String {
        let line = sql.split(whereSeparator: { $0.isNewline }).map { $0.trimmingPrefix(while: { $0 == " " }) }.joined(separator: " ")
        guard line.utf8.count > shownSQLLength else { return line }
        let head = line.unicodeScalars.prefix(shownSQLLength)
        return String(String.UnicodeScalarView(head)) + "… (\(sql.utf8.count) bytes in all)"
    }

    /// True when the file is not a database or is damaged (`SQLITE_NOTADB`, `SQLITE_CORRUPT`).
    public var isCorruption: Bool { code == SQLITE_NOTADB || code == SQLITE_CORRUPT }
}
