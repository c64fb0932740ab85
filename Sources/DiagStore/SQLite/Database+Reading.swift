import CSQLite

extension Database {
    /// Opens an existing database to read it while another process may be writing it.
    ///
    /// A connection opened `SQLITE_OPEN_READONLY` cannot create the `-shm` file nor recover a
    /// WAL left by a killed writer, and it races with the writer's last close deleting `-wal`
    /// and `-shm` (seen as `SQLITE_IOERR` under load). So the file is opened read-write with
    /// `query_only`, which lets SQLite take its usual locks, and only where that is refused
    /// (a folder or file without write permission) read-only.
    public static func openForReading(path: String, busyTimeoutMilliseconds: Int32 = 5_000) throws -> Database {
        do {
            let database = try Database(path: path, options: .init(readOnly: false, create: false, busyTimeoutMilliseconds: busyTimeoutMilliseconds))
            try database.execute("PRAGMA query_only = 1")
            return database
        } catch let error as SQLiteError where [SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_IOERR].contains(error.code) {
            return try Database(path: path, options: .init(readOnly: true, busyTimeoutMilliseconds: busyTimeoutMilliseconds))
        }
    }
}
