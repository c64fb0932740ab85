import CArchive
import DiagStore
import Foundation

/// A database opened for a snapshot, with the identity of the file its connection opened, so
/// that a byte copy can check it reads that same file (and not one renamed over it since).
struct SnapshotSource {
    struct FileIdentity: Equatable {
        var device: UInt64
        var inode: UInt64

        init?(path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            self.init(status)
        }

        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    var database: Database
    /// Nil when the file at the path changed while the connection opened it.
    var identity: FileIdentity?
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
enum QuiescentFileCopy {
    /// Copies `source` to `destination` (which must not exist) and returns true, or returns false
    /// without creating `destination` when a byte copy would not be consistent.
    static func copy(_ source: SnapshotSource, to destination: String) throws -> Bool {
        try withQuiescentFile(source) { input, _ in
            let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard output >= 0 else {
                throw BundleError.failure("cannot create \(destination): \(String(cString: strerror(errno)))")
            }
            defer { close(output) }
            try copyBytes(from: input, named: source.database.path, to: output, named: destination)
        }
    }

    /// Runs `body` with a descriptor of the source's file, open for reading at offset 0, and its
    /// size, inside a read transaction during which no one can change the file; returns true.
    /// Returns false without calling `body` when SQLite does not guarantee that.
    static func withQuiescentFile(_ source: SnapshotSource, _ body: (_ descriptor: Int32, _ size: Int64) throws -> Void) throws -> Bool {
        guard let identity = source.identity else { return false }
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
        let input = open(database.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return false }
        defer { close(input) }
        var status = stat()
        guard fstat(input, &status) == 0, SnapshotSource.FileIdentity(status) == identity else { return false }
        try body(input, Int64(status.st_size))
        return true
    }

    /// Copies in the kernel (copy_file_range) where it can, else through a 1 MiB buffer.
    private static func copyBytes(from input: Int32, named inputName: String, to output: Int32, named outputName: String) throws {
        while true {
            let copied = carchive_copy_file_range(input, output, 1 << 30)
            if copied > 0 { continue }
            if copied == 0 { return }
            switch errno {
            case EINTR: continue
            case ENOSYS, EXDEV, EINVAL, EOPNOTSUPP, EPERM: break  // not for these files: copy in user memory
            default: throw BundleError.failure("cannot copy \(inputName) to \(outputName): \(String(cString: strerror(errno)))")
            }
            break
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 4096)
        defer { buffer.deallocate() }
        while true {
            let count = read(input, buffer.baseAddress, buffer.count)
            guard count >= 0 else {
                if errno == EINTR { continue }
                throw BundleError.failure("cannot read \(inputName): \(String(cString: strerror(errno)))")
            }
            guard count > 0 else { return }
            var offset = 0
            while offset < count {
                let written = write(output, buffer.baseAddress! + offset, count - offset)
                guard written > 0 else {
                    if written < 0, errno == EINTR { continue }
                    throw BundleError.failure("cannot write \(outputName): \(String(cString: strerror(errno)))")
                }
                offset += written
            }
        }
    }
}
