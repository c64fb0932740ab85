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
        return try readingSchema(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds) {
            do {
                let database = try Database(path: path, options: .init(readOnly: false, create: false, busyTimeoutMilliseconds: busyTimeoutMilliseconds))
                try database.execute("PRAGMA query_only = 1")
                return database
            } catch let error as SQLiteError where [SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_IOERR].contains(error.code) {
                return try Database(path: path, options: .init(readOnly: true, busyTimeoutMilliseconds: busyTimeoutMilliseconds))
            }
        }
    }

    /// Makes this connection's close leave the WAL and its index (`-wal`, `-shm`) in place instead
    /// of checkpointing and removing them when it is the file's last connection
    /// (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`). For readers of a chunk that stays in WAL mode but
    /// that nothing holds open (sealed, its search index not built yet): each query's reader
    /// otherwise created both files and removed them again.
    public func keepWALOnClose() {
        _ = csqlite_db_config_flag(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1)
    }

    /// The connection `open` makes, once it has read the schema: that first read makes the -shm
    /// of a WAL-mode file. Where the -shm cannot be made (a full file system) and no WAL frames
    /// lie beside the file, a connection with a WAL index of its own
    /// (`openWithPrivateWALIndex`), opened once the first is closed (SQLite shares a file's
    /// locks among the connections of a process).
    static func readingSchema(path: String, busyTimeoutMilliseconds: Int32, _ open: () throws -> Database) throws -> Database {
        let failure: SQLiteError
        do {
            let database = try open()
            _ = try database.scalarInt("SELECT count(*) FROM sqlite_master")
            return database
        } catch let error as SQLiteError where cannotMakeSharedMemory(error) && !hasLogBeside(path) {
            failure = error
        }
        guard let own = try? openWithPrivateWALIndex(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds) else { throw failure }
        return own
    }

    /// Whether `error` says SQLite could not create, grow or map the `-shm` file beside a WAL-mode
    /// file (`SQLITE_IOERR_SHMOPEN`, `_SHMSIZE`, `_SHMMAP`), as on a full file system, where
    /// creating the file succeeds and growing it does not.
    static func cannotMakeSharedMemory(_ error: SQLiteError) -> Bool {
        [SQLITE_IOERR | 18 << 8, SQLITE_IOERR | 19 << 8, SQLITE_IOERR | 21 << 8].contains(error.extendedCode) || error.code == SQLITE_FULL
    }

    /// Opens a WAL-mode file with no WAL frames beside it for reading without a `-shm`: in
    /// exclusive locking mode, set before the first read, SQLite keeps the WAL index in this
    /// process's memory, and holds the file's lock until the connection closes, so nothing
    /// writes it meanwhile (diagd's finisher, which seals and indexes closed chunks, meets a busy
    /// file and tries again later; another reader waits for its busy timeout). For a full file
    /// system, where a store's chunks that diagd does not hold open could not be read at all.
    /// Read-write, for SQLite refuses exclusive WAL reading otherwise, and `query_only`; with no
    /// frames, closing it checkpoints nothing.
    static func openWithPrivateWALIndex(path: String, busyTimeoutMilliseconds: Int32) throws -> Database {
        let database = try Database(path: path, options: .init(readOnly: false, create: false, busyTimeoutMilliseconds: busyTimeoutMilliseconds))
        try database.execute("PRAGMA locking_mode = EXCLUSIVE; PRAGMA query_only = 1")
        _ = try database.scalarInt("SELECT count(*) FROM sqlite_master")
        return database
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
