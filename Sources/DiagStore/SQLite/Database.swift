import CSQLite
import CSQLiteAlloc

/// One SQLite connection. The connection is closed when the value is released.
///
/// A `Database` is used by one thread at a time (SQLite's multi-thread mode); wrap it in an
/// actor or a lock to share it.
public final class Database {
    /// How to open a database file.
    public struct OpenOptions: Sendable {
        /// Open for reading only; writes fail with `SQLITE_READONLY`.
        public var readOnly: Bool
        /// Create the file when it does not exist (ignored when `readOnly`).
        public var create: Bool
        /// How long a statement waits for another connection's lock before `SQLITE_BUSY`.
        public var busyTimeoutMilliseconds: Int32
        /// Read-only, and the file is known not to change while it is open: SQLite takes no lock
        /// and keeps no WAL index (`?immutable=1`). Only for files nothing writes any more.
        public var immutable: Bool

        public init(readOnly: Bool = false, create: Bool = true, busyTimeoutMilliseconds: Int32 = 5_000, immutable: Bool = false) {
            self.readOnly = readOnly || immutable
            self.create = create
            self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
            self.immutable = immutable
        }
    }

    /// The file path given when opening.
    public let path: String
    let handle: OpaquePointer

    public init(path: String, options: OpenOptions = OpenOptions()) throws {
        self.path = path
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        if options.readOnly {
            flags |= SQLITE_OPEN_READONLY
        } else {
            flags |= SQLITE_OPEN_READWRITE
            if options.create { flags |= SQLITE_OPEN_CREATE }
        }
        var name = path
        if options.immutable {
            flags |= SQLITE_OPEN_URI
            name = "file:" + Self.uriPath(path) + "?immutable=1"
        }
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(name, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            // sqlite3_open_v2 hands back a handle even when it fails; it must still be closed.
            let error = SQLiteError(connection: connection, code: code)
            sqlite3_close_v2(connection)
            throw SQLiteError(code: error.extendedCode, message: "\(error.message) (\(path))")
        }
        handle = connection
        sqlite3_extended_result_codes(connection, 1)
        sqlite3_busy_timeout(connection, options.busyTimeoutMilliseconds)
        FoldedContainsFunction.register(on: connection)
        ContainsFunction.register(on: connection)
        MessageBlocks.register(on: connection)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs `body` with `handler` called on this thread about every `instructions` virtual
    /// machine instructions of the connection's statements (`sqlite3_progress_handler`): a long
    /// statement (a `CREATE INDEX` of a big chunk) can pause in it, holding what it holds. The
    /// handler never interrupts the statement.
    public func withProgressHandler<T>(every instructions: Int32, _ handler: () -> Void, _ body: () throws -> T) rethrows -> T {
        try withoutActuallyEscaping(handler) { handler in
            let box = Unmanaged.passRetained(ProgressHandlerBox(handler))
            sqlite3_progress_handler(handle, instructions, { context in
                guard let context else { return 0 }
                Unmanaged<ProgressHandlerBox>.fromOpaque(context).takeUnretainedValue().handler()
                return 0
            }, box.toOpaque())
            defer {
                sqlite3_progress_handler(handle, 0, nil, nil)
                box.release()
            }
            return try body()
        }
    }

    /// A file path as the path of an SQLite `file:` URI: `%`, `?` and `#` (and bytes outside
    /// printable ASCII) percent-encoded, the rest as it is.
    static func uriPath(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            if byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                let hex = Array("0123456789ABCDEF".utf8)
                encoded.unicodeScalars.append("%")
                encoded.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                encoded.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0xF)]))
            } else {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return encoded
    }

    /// Runs one or more SQL statements separated by `;`, with no bound values.
    public func execute(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw SQLiteError(connection: handle, code: code, sql: sql) }
    }

    /// Runs one statement with bound values, stepping it to the end.
    public func execute(_ sql: String, _ bindings: [SQLValueConvertible?]) throws {
        let statement = try prepare(sql)
        try statement.bind(bindings)
        try statement.run()
    }

    /// Compiles one statement.
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// The first column of the first row, or nil when there is no row or it is NULL.
    public func scalarInt(_ sql: String, _ bindings: [SQLValueConvertible?] = []) throws -> Int64? {
        let statement = try prepare(sql)
        try statement.bind(bindings)
        guard try statement.step(), !statement.isNull(at: 0) else { return nil }
        return statement.int64(at: 0)
    }

    /// The first column of the first row as text, or nil when there is no row or it is NULL.
    public func scalarText(_ sql: String, _ bindings: [SQLValueConvertible?] = []) throws -> String? {
        let statement = try prepare(sql)
        try statement.bind(bindings)
        guard try statement.step() else { return nil }
        return statement.string(at: 0)
    }

    /// `PRAGMA user_version`: the schema version of the file.
    public func userVersion() throws -> Int {
        Int(try scalarInt("PRAGMA user_version") ?? 0)
    }

    public func setUserVersion(_ version: Int) throws {
        try execute("PRAGMA user_version = \(version)")
    }

    /// Switches to write-ahead logging and returns the journal mode now in effect.
    @discardableResult
    public func enableWAL() throws -> String {
        try scalarText("PRAGMA journal_mode = WAL") ?? ""
    }

    /// The rowid of the last row inserted through this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// True outside of any explicit transaction.
    public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }
}

@available(*, unavailable)
extension Database: Sendable {}

extension Database {
    /// Turns off SQLite's count of the memory it allocates, for the whole process; it must come
    /// before the process's first connection (returns false, changing nothing, after it).
    ///
    /// The count takes one process-wide mutex on every allocation and free of every connection,
    /// so threads reading chunks at once wait on each other: a rare `CONTAINS` over the 52
    /// chunks of 10M records through diagd made 6,300–7,000 `futex` calls, 3,780 without the
    /// count, and took 158 ms instead of 124 ms (hyperfine, 25 runs each, side by side).
    /// `diag` and `diagd` turn it off at start; `memoryUsed()` reads nothing then, and only
    /// tests, which leave the count on, ask it.
    @discardableResult
    public static func turnOffMemoryStatistics() -> Bool {
        csqlite_config_memstatus(0) == SQLITE_OK
    }

    /// Bounds the memory of each sort SQLite does in this process to the connection's page cache
    /// (2 MiB) whatever the file's page size; it must come before the process's first
    /// connection (returns false, changing nothing, after it).
    ///
    /// A sort keeps at least `SQLITE_CONFIG_PMASZ` pages (250 by default) in memory before it
    /// spills to a temporary file: 1 MiB in 4 KiB pages, where the 2 MiB cache bounds it, but
    /// 16 MiB in the 64 KiB pages of a burst's chunk not sealed yet (docs/STORE.md, "Chunks
    /// written in a burst"), which has no timestamp index, so every read of it sorts. A common
    /// `CONTAINS` over 2M records in seven such chunks, read at once, took `diag show` to
    /// 152 MiB of RSS, against 52 MiB for the same chunks in 4 KiB pages. 16 pages: 64 KiB and
    /// 1 MiB, both under the cache's 2 MiB, which then bounds both.
    @discardableResult
    public static func boundSortMemory() -> Bool {
        csqlite_config_pmasz(16) == SQLITE_OK
    }

    /// Has SQLite allocate its small blocks through a cache kept by each thread, in front of
    /// malloc (Sources/CSQLiteAlloc/alloc.c); it must come before the process's first connection
    /// (returns false, changing nothing, after it). A query that opens many chunks pays about
    /// 1,200 of SQLite's allocations a chunk, most freed soon after, and glibc's own cache of 7
    /// blocks a size sent the rest through the arena's lock: a `CONTAINS` that finds nothing
    /// in diagd's store of 10M records (51 chunks) took 36.0 ms, 25.4 ms with these caches, and
    /// a rare one 68.2 ms, 56.7 ms (2026-12-06, docs/STORE.md "Reading").
    @discardableResult
    public static func useThreadCaches() -> Bool {
        csqlite_use_thread_caches() == SQLITE_OK
    }

    /// Bytes SQLite has allocated in this process now, and the most since the last reset: what
    /// shows that a long operation (a migration) works in bounded memory.
    public static func memoryUsed() -> (current: Int64, highwater: Int64) {
        (sqlite3_memory_used(), sqlite3_memory_highwater(0))
    }

    public static func resetMemoryHighwater() {
        _ = sqlite3_memory_highwater(1)
    }
}

/// The closure a progress handler calls, kept alive while the handler is set.
private final class ProgressHandlerBox {
    let handler: () -> Void
    init(_ handler: @escaping () -> Void) { self.handler = handler }
}
