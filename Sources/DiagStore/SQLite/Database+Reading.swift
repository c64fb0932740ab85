import CSQLite
import Glibc

extension Database {
    /// Opens an existing database to read it while another process may be writing it.
    ///
    /// A connection opened `SQLITE_OPEN_READONLY` cannot create the `-shm` file nor recover a
    /// WAL left by a killed writer, and it races with the writer's last close deleting `-wal`
    /// and `-shm` (seen as `SQLITE_IOERR` under load). So the file is opened read-write with
    /// `query_only`, which lets SQLite take its usual locks, and only where that is refused
    /// (a folder or file without write permission) read-only.
    ///
    /// A file on a read-only file system (read-only media, a `mount -o ro` of a copy) with no WAL
    /// frames nor rollback journal beside it is opened immutable: SQLite cannot create the `-shm`
    /// it reads a WAL-mode file through there ("unable to open database file"), and nothing can
    /// write the file. Frames or a journal must be read or rolled back, which immutable skips.
    public static func openForReading(path: String, busyTimeoutMilliseconds: Int32 = 5_000) throws -> Database {
        if isOnReadOnlyFileSystem(path), !hasLogBeside(path) {
            return try Database(path: path, options: .init(create: false, busyTimeoutMilliseconds: busyTimeoutMilliseconds, immutable: true))
        }
        do {
            let database = try Database(path: path, options: .init(readOnly: false, create: false, busyTimeoutMilliseconds: busyTimeoutMilliseconds))
            try database.execute("PRAGMA query_only = 1")
            return database
        } catch let error as SQLiteError where [SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_IOERR].contains(error.code) {
            return try Database(path: path, options: .init(readOnly: true, busyTimeoutMilliseconds: busyTimeoutMilliseconds))
        }
    }

    /// Whether the file system holding `path` is mounted read-only.
    static func isOnReadOnlyFileSystem(_ path: String) -> Bool {
        var info = statvfs()
        return statvfs(path, &info) == 0 && info.f_flag & UInt(ST_RDONLY) != 0
    }

    /// Whether a WAL with frames or a rollback journal lies beside the database at `path`.
    static func hasLogBeside(_ path: String) -> Bool {
        ["-wal", "-journal"].contains { suffix in
            var status = stat()
            return stat(path + suffix, &status) == 0 && status.st_size > 0
        }
    }
}
