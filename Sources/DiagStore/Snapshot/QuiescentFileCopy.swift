import Foundation

/// A database opened for a snapshot, with the identity of the file its connection opened, so
/// that a byte copy can check it reads that same file (and not one renamed over it since).
public struct SnapshotSource {
    public struct FileIdentity: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64

        public init?(path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            self.init(status)
        }

        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    public var database: Database
    /// Nil when the file at the path changed while the connection opened it.
    public var identity: FileIdentity?
}

/// Copies a database file byte for byte while SQLite guarantees that no one can change the file:
/// several times faster than the backup API, which reads and writes one page at a time.
///
/// The copy is taken inside a read transaction of the source connection. In a rollback-journal
/// mode, the transaction's shared lock keeps every writer out of the file. In WAL mode, a reader
/// that begins while the WAL holds no frames reads the file alone and holds the lock that every
/// checkpoint needs before it writes into the file; and a WAL found empty once the transaction
/// has begun was empty when it began (emptying it waits for the readers); this holds only while
/// the WAL and its -shm (where the locks are) exist and this process may write the -shm. Writers may go on
/// appending to the WAL meanwhile: the copy is the state when the transaction began.
/// Anything else (frames in the WAL, an unknown mode, a file replaced) is left to the backup API.
///
/// The bytes are read through the connection's own file handle (`Database.mainFile()`), never a
/// descriptor of this code's: closing one would drop this process's locks on the file.
public enum QuiescentFileCopy {
    /// Copies `source` to `destination` (which must not exist) and returns true, or returns false
    /// without creating `destination` when a byte copy would not be consistent.
    public static func copy(_ source: SnapshotSource, to destination: String) throws -> Bool {
        try withQuiescentFile(source) { input, size in
            let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard output >= 0 else {
                throw SnapshotError.failure("cannot create \(destination): \(String(cString: strerror(errno)))")
            }
            defer { close(output) }
            try copyBytes(from: input, size: size, to: output, named: destination)
        }
    }

    /// Runs `body` with the source's file and its size, inside a read transaction during which
    /// no one can change the file; returns true. Returns false without calling `body` when
    /// SQLite does not guarantee that.
    public static func withQuiescentFile(_ source: SnapshotSource, _ body: (_ file: DatabaseFile, _ size: Int64) throws -> Void) throws -> Bool {
        guard source.identity != nil else { return false }
        let database = source.database
        let mode = (try database.scalarText("PRAGMA journal_mode") ?? "").lowercased()
        guard ["wal", "delete", "truncate", "persist"].contains(mode) else { return false }
        try database.execute("BEGIN")
        defer { try? database.execute("COMMIT") }
        _ = try database.scalarInt("SELECT count(*) FROM sqlite_master")  // the read transaction begins here
        if mode == "wal" {
            // The locks live in the -shm file: without write access to it, SQLite reads through a
            // private copy, and the checkpoints of others are not held off.
            var status = stat()
            guard stat(database.path + "-wal", &status) == 0, status.st_size == 0,
                  access(database.path + "-shm", R_OK | W_OK) == 0
            else { return false }
        }
        let file = try database.mainFile()
        // The path must still name the file the connection reads, the -wal and -shm beside it.
        guard try !file.hasMoved() else { return false }
        try body(file, try file.size())
        return true
    }

    /// Writes the first `size` bytes of `input` to `output`, 1 MiB at a time.
    private static func copyBytes(from input: DatabaseFile, size: Int64, to output: Int32, named outputName: String) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 4096)
        defer { buffer.deallocate() }
        var offset: Int64 = 0
        while offset < size {
            let count = Int(min(Int64(buffer.count), size - offset))
            do {
                try input.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]), at: offset)
            } catch {
                throw SnapshotError.failure("cannot copy \(input.path) to \(outputName): \(error)")
            }
            var written = 0
            while written < count {
                let result = write(output, buffer.baseAddress! + written, count - written)
                guard result > 0 else {
                    if result < 0, errno == EINTR { continue }
                    throw SnapshotError.failure("cannot write \(outputName): \(String(cString: strerror(errno)))")
                }
                written += result
            }
            offset += Int64(count)
        }
    }
}
