import CSQLite
import Foundation
import Glibc
/// What went wrong with a store, naming the file a user would look at.
public struct StoreError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Equatable {
        /// No store at the path and `create` was false.
        case notFound
        /// `Info.json` cannot be read or does not describe a store.
        case badInfo
        /// A chunk file is not a database, is damaged, or holds an unknown schema.
        case badChunk
        /// A stored value cannot be read back into a record.
        case badRecord
        /// The store (or a chunk) was written by a newer version.
        case unsupportedVersion
        /// The store was opened read-only and the operation writes.
        case readOnly
        /// Another process (or another `LogStore` value) is appending to the store.
        case locked
        /// Anything else SQLite or the file system reported.
        case io
    }

    public let kind: Kind
    /// The file or directory concerned.
    public let path: String
    public let reason: String

    public init(_ kind: Kind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }

    /// Wraps an error raised while working on a chunk file, naming the file.
    static func chunk(_ path: String, _ error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? SQLiteError {
            if let reason = unwritableFolderReason(path, error) ?? fullFileSystemReason(path, error) {
                return StoreError(.io, path: path, reason: reason)
            }
            if error.code == SQLITE_TOOBIG {
                return StoreError(.badChunk, path: path,
                                  reason: "chunk holds a value longer than the store's bound of \(Database.valueLengthLimit) bytes (\(error.message))")
            }
            return StoreError(error.isCorruption ? .badChunk : .io, path: path,
                              reason: error.isCorruption ? "chunk file is damaged or not a database (\(error))" : error.description)
        }
        return StoreError(.io, path: path, reason: "\(error)")
    }

    /// Why a chunk cannot be written, or read, when its file system is full: SQLite says
    /// "database or disk is full" (`SQLITE_FULL`) when a write finds no space, and "disk I/O
    /// error" (`SQLITE_IOERR_SHMSIZE`, …) when the `-shm` file it reads a WAL-mode chunk through
    /// cannot be created or grown; neither names the file system. `SQLITE_FULL` with space left
    /// beside the chunk comes from SQLite's temporary files (a sort that spilled), kept elsewhere.
    static func fullFileSystemReason(_ path: String, _ error: SQLiteError) -> String? {
        guard error.code == SQLITE_FULL || error.code == SQLITE_IOERR else { return nil }
        let folder = (path as NSString).deletingLastPathComponent
        var info = statvfs()
        guard statvfs(folder, &info) == 0 else { return nil }
        let free = UInt64(info.f_bavail) * UInt64(info.f_frsize)
        if free < fullBelow {
            return "the file system holding \(folder) is full (\(free) bytes free to this user), so SQLite could not "
                + (error.code == SQLITE_IOERR && Database.cannotMakeSharedMemory(error)
                    ? "create or grow the -shm file beside this chunk that it reads a WAL-mode file through" : "write to this chunk")
                + " (\(error)). Free some space there and run it again: what the store held before is kept"
        }
        guard error.code == SQLITE_FULL else { return nil }
        return "SQLite found no space for a write (\(error)), but the file system holding \(folder) has \(free) bytes free: "
            + "the full one is probably that of SQLite's temporary files (a large sort spills there: the folder named by "
            + "SQLITE_TMPDIR or TMPDIR, else /var/tmp, /usr/tmp or /tmp)"
    }

    /// Free space under which a write or `-shm` failure of SQLite is put down to a full file
    /// system: a page of the chunk, a WAL frame or a `-shm` region (32 KiB) no longer fits.
    static let fullBelow: UInt64 = 1 << 20

    /// Why a chunk in WAL mode cannot be read here, when that is the cause of `error`: SQLite
    /// reads such a file through a `-shm` file beside it, which diagd keeps while it runs on the
    /// store, and which a reader otherwise creates, so a reader that may not write the folder
    /// (another user, a read-only file system with WAL frames to read) fails at its first
    /// statement with "attempt to write a readonly database" or "unable to open database file".
    static func unwritableFolderReason(_ path: String, _ error: SQLiteError) -> String? {
        guard error.code == SQLITE_READONLY || error.code == SQLITE_CANTOPEN,
              !FileManager.default.fileExists(atPath: path + "-shm"), FileManager.default.fileExists(atPath: path) else { return nil }
        let folder = (path as NSString).deletingLastPathComponent
        guard access(folder, W_OK) != 0 else { return nil }
        let cause = String(cString: strerror(errno))
        return "cannot read this chunk here (SQLite error \(error.code): \(error.message)): it is in WAL mode, and SQLite reads it through a -shm file "
            + "beside it, which diagd creates while it runs on the store and a reader otherwise must, but \(folder) "
            + "is not writable here (\(cause)). Read the store as its owner, while diagd runs on it, or from a copy "
            + "you own (cp -r)"
    }
}
