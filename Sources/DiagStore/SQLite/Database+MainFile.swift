import CSQLite

extension Database {
    /// The main database file as this connection has it open, read through SQLite's own file
    /// handle (`SQLITE_FCNTL_FILE_POINTER` and the VFS's `xRead`).
    ///
    /// A byte copy must not open the file a second time: POSIX advisory locks belong to the
    /// process, and closing any descriptor of a file drops every lock the process holds on it,
    /// this connection's too (sqlite.org/howtocorrupt.html, §2.2). Another process could then
    /// take the exclusive lock that tells it no one else has the file open, and write it.
    public func mainFile() throws -> DatabaseFile {
        var pointer: UnsafeMutableRawPointer?
        let code = sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &pointer)
        guard code == SQLITE_OK, let pointer else {
            throw SQLiteError(code: code == SQLITE_OK ? SQLITE_MISUSE : code, message: "no open file behind the connection to \(path)")
        }
        let file = pointer.assumingMemoryBound(to: sqlite3_file.self)
        guard file.pointee.pMethods != nil else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "the file behind the connection to \(path) is not open yet")
        }
        return DatabaseFile(database: self, file: file)
    }
}

/// Reads the main file of an open connection without a descriptor of its own (`mainFile()`).
///
/// Reading may happen on another thread than the connection's owner, as long as the owner makes
/// no SQLite call on the connection meanwhile: reads are `pread`s (or copies from SQLite's memory
/// map) that change nothing.
public struct DatabaseFile: @unchecked Sendable {
    // Safe: `file` stays valid while `database` is open (held here), and is only read.
    private let database: Database
    private let file: UnsafeMutablePointer<sqlite3_file>

    fileprivate init(database: Database, file: UnsafeMutablePointer<sqlite3_file>) {
        self.database = database
        self.file = file
    }

    public var path: String { database.path }

    /// The file's size in bytes, as the file system has it now.
    public func size() throws -> Int64 {
        var size: sqlite3_int64 = 0
        let code = file.pointee.pMethods.pointee.xFileSize(file, &size)
        guard code == SQLITE_OK else { throw SQLiteError(code: code, message: "cannot read the size of \(path)") }
        return Int64(size)
    }

    /// Whether the path no longer names the file this connection opened (removed or replaced).
    public func hasMoved() throws -> Bool {
        var moved: Int32 = 0
        let code = sqlite3_file_control(database.handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved)
        guard code == SQLITE_OK else { throw SQLiteError(code: code, message: "cannot tell whether \(path) was moved") }
        return moved != 0
    }

    /// Fills `buffer` with the bytes at `offset`; throws when the file ends first.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        var done = 0
        while done < buffer.count {
            let amount = Int32(min(buffer.count - done, 1 << 30))
            let code = file.pointee.pMethods.pointee.xRead(file, base + done, amount, sqlite3_int64(offset) + sqlite3_int64(done))
            if code == SQLITE_IOERR | (2 << 8) {  // SQLITE_IOERR_SHORT_READ, a macro Swift does not import
                throw SQLiteError(code: code, message: "\(path) ended before byte \(offset + Int64(buffer.count))")
            }
            guard code == SQLITE_OK else { throw SQLiteError(code: code, message: "cannot read \(path) at byte \(offset + Int64(done))") }
            done += Int(amount)
        }
    }
}
