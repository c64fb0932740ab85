import CSQLite

extension Database {
    /// Copies the database, as one consistent snapshot, to a new file at `path` with SQLite's
    /// online backup API. Writers on other connections may go on meanwhile; the copy restarts
    /// until it sees a state no one changed halfway.
    public func backup(toPath path: String, pagesPerStep: Int32 = 1024) throws {
        let destination = try Database(path: path)
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

    /// Writes a compacted copy of the database to a new file with `VACUUM INTO`.
    public func vacuumInto(path: String) throws {
        let statement = try prepare("VACUUM INTO ?")
        try statement.bind([path])
        try statement.run()
    }
}
