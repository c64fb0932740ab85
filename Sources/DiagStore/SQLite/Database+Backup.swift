import CSQLite

extension Database {
    /// How durable a copy must be on disk once written.
    public enum CopyDurability: Sendable {
        /// Synced to disk before the call returns, journaled while written: a copy that must
        /// survive a crash by itself.
        case durable
        /// Neither synced nor journaled (`synchronous = OFF`, `journal_mode = OFF` on the
        /// destination): for a temporary copy that a crash makes worthless anyway and that the
        /// caller reads back or syncs as part of something else. Several times faster.
        case temporary
    }

    /// Copies the database, as one consistent snapshot, to a new file at `path` with SQLite's
    /// online backup API. Writers on other connections may go on meanwhile; the copy restarts
    /// until it sees a state no one changed halfway.
    public func backup(toPath path: String, pagesPerStep: Int32 = 1024, durability: CopyDurability = .durable) throws {
        let destination = try Database(path: path)
        if durability == .temporary {
            try destination.execute("PRAGMA synchronous = OFF; PRAGMA journal_mode = OFF")
        }
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            throw SQLiteError(connection: destination.handle, code: sqlite3_errcode(destination.handle),
                              sql: "backup to \(path)")
        }
        var code: Int32
        repeat {
            code = sqlite3_backup_step(backup, pagesPerStep)
            if code == SQLITE_BUSY || code == SQLITE_LOCKED { sqlite3_sleep(5) }
        } while code == SQLITE_OK || code == SQLITE_BUSY || code == SQLITE_LOCKED
        let finish = sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE else { throw SQLiteError(code: code, sql: "backup to \(path)") }
        guard finish == SQLITE_OK else {
            throw SQLiteError(connection: destination.handle, code: finish, sql: "backup to \(path)")
        }
    }

    /// Writes a compacted copy of the database to a new file with `VACUUM INTO`. A `.temporary`
    /// copy is written without syncing: SQLite syncs the output as this connection's
    /// `synchronous` setting says, so the setting is lowered for the statement and restored.
    public func vacuumInto(path: String, durability: CopyDurability = .durable) throws {
        var restore: Int64?
        if durability == .temporary {
            restore = try scalarInt("PRAGMA synchronous")
            try execute("PRAGMA synchronous = OFF")
        }
        defer { if let restore { try? execute("PRAGMA synchronous = \(restore)") } }
        let statement = try prepare("VACUUM INTO ?")
        try statement.bind([path])
        try statement.run()
    }
}
