import CSQLite
import DiagModel

/// A compiled SQL statement. Finalized when the value is released; used by one thread at a time.
public final class Statement {
    /// The SQL text, for error messages (never the bound values).
    public let sql: String
    let handle: OpaquePointer
    private let connection: OpaquePointer
    /// Keeps the connection open as long as a statement of it lives.
    let database: Database

    init(database: Database, sql: String) throws {
        var statement: OpaquePointer?
        var trailing = ""
        let code = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(database.handle, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, &tail)
            if let tail { trailing = String(cString: tail) }
            return code
        }
        guard code == SQLITE_OK else { throw SQLiteError(connection: database.handle, code: code, sql: sql) }
        guard let statement else { throw SQLiteError(code: SQLITE_MISUSE, message: "no statement in the SQL text", sql: sql) }
        // SQLite would silently ignore what follows the first statement: refuse it instead.
        guard trailing.allSatisfy({ $0.isWhitespace || $0 == ";" }) else {
            sqlite3_finalize(statement)
            throw SQLiteError(code: SQLITE_MISUSE, message: "more than one statement; prepare takes one (use execute for several)", sql: sql)
        }
        self.handle = statement
        self.sql = sql
        self.connection = database.handle
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Number of `?` placeholders.
    public var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

    // MARK: Binding (indexes start at 1, as in SQLite)

    /// Binds the values to the placeholders in order; nil binds NULL.
    public func bind(_ values: [SQLValueConvertible?]) throws {
        guard values.count == Int(parameterCount) else {
            throw SQLiteError(code: SQLITE_RANGE,
                              message: "\(values.count) values given for \(parameterCount) placeholders", sql: sql)
        }
        for (offset, value) in values.enumerated() {
            if let value { try value.bind(to: self, at: Int32(offset + 1)) } else { try bindNull(at: Int32(offset + 1)) }
        }
    }

    public func bind(_ value: SQLValue, at index: Int32) throws {
        switch value {
        case .null: try bindNull(at: index)
        case .int(let number): try bind(number, at: index)
        case .double(let number): try bind(number, at: index)
        case .text(let text): try bind(text, at: index)
        }
    }

    public func bind(_ value: Int64, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    public func bind(_ value: Double, at index: Int32) throws {
        try check(sqlite3_bind_double(handle, index, value))
    }

    public func bind(_ value: String, at index: Int32) throws {
        var value = value
        let code = value.withUTF8 { utf8 -> Int32 in
            guard let base = utf8.baseAddress, utf8.count > 0 else {
                return sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
            }
            return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                sqlite3_bind_text(handle, index, $0, Int32(utf8.count), csqlite_transient())
            }
        }
        try check(code)
    }

    public func bind(blob bytes: [UInt8], at index: Int32) throws {
        let code = bytes.withUnsafeBytes { raw in
            sqlite3_bind_blob(handle, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count), csqlite_transient())
        }
        try check(code)
    }

    public func bindNull(at index: Int32) throws {
        try check(sqlite3_bind_null(handle, index))
    }

    /// Binds an optional integer: NULL when nil.
    @inline(__always)
    public func bind(_ value: Int64?, at index: Int32) throws {
        if let value { try check(sqlite3_bind_int64(handle, index, value)) } else { try bindNull(at: index) }
    }

    /// Binds optional text: NULL when nil.
    @inline(__always)
    public func bind(_ value: String?, at index: Int32) throws {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    // MARK: Running

    /// Steps once: true when a row is ready to read, false when the statement is done.
    @discardableResult
    public func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            sqlite3_reset(handle)
            throw SQLiteError(connection: connection, code: code, sql: sql)
        }
    }

    /// Steps to the end, ignoring any rows, then resets for the next run.
    public func run() throws {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Makes the statement ready to run again; bindings stay.
    public func reset() {
        sqlite3_reset(handle)
    }

    public func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw SQLiteError(connection: connection, code: code, sql: sql) }
    }
}

@available(*, unavailable)
extension Statement: Sendable {}
