import CSQLite

extension Database {
    /// The longest string or blob, and the largest row, that a connection to a chunk accepts:
    /// the store's own bound on a record (`diag import` takes lines of at most 16 MiB, diagd
    /// 1 MiB). A larger value can only have been written by hand, and reading it would cost its
    /// whole size in memory.
    public static let valueLengthLimit: Int32 = 16 << 20

    /// The most memory SQLite may hold in a process that reads a foreign chunk: enough for the
    /// page caches of a parallel scan and a sort that spills to disk, far less than a view or a
    /// blob written to exhaust the reader.
    public static let foreignHeapLimit: Int64 = 96 << 20

    /// Opens a database file written by someone else (a chunk in a bundle) to read it.
    ///
    /// Nothing the file's author wrote may run: the connection is read-only and immutable (no
    /// lock, no WAL: the file alone is read, so a `-wal` planted beside it changes nothing),
    /// `SQLITE_DBCONFIG_DEFENSIVE` is on, triggers and views are disabled, `trusted_schema` is
    /// off (no function of the author's schema runs), and no value may exceed
    /// `valueLengthLimit`. SQLite's heap in this process is bounded by `foreignHeapLimit`.
    /// The caller must still check `sqlite_schema` before anything else (`ForeignChunk`).
    public static func openUntrusted(path: String) throws -> Database {
        _ = sqlite3_hard_heap_limit64(foreignHeapLimit)
        let database = try Database(path: path, options: .init(readOnly: true, create: false, immutable: true))
        for (option, on) in [(SQLITE_DBCONFIG_DEFENSIVE, 1), (SQLITE_DBCONFIG_ENABLE_TRIGGER, 0),
                             (SQLITE_DBCONFIG_ENABLE_VIEW, 0), (SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0)] {
            let code = csqlite_db_config_flag(database.handle, option, Int32(on))
            guard code == SQLITE_OK else {
                throw SQLiteError(connection: database.handle, code: code, sql: "sqlite3_db_config(\(option), \(on))")
            }
        }
        database.limitValueLength()
        return database
    }

    /// Bounds every string, blob and row this connection reads or builds to `valueLengthLimit`:
    /// a longer one fails with `SQLITE_TOOBIG` instead of being loaded.
    public func limitValueLength() {
        sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, Self.valueLengthLimit)
    }
}
