import Foundation

/// Why a snapshot could not be taken, worded for the user: `isBadInput` when the file is not a
/// database or is damaged (exit 65 for the caller), otherwise the machine failed (exit 1).
public struct SnapshotError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var isBadInput: Bool

    public init(_ message: String, isBadInput: Bool = false) {
        self.message = message
        self.isBadInput = isBadInput
    }

    public var description: String { message }

    static func failure(_ message: String) -> SnapshotError { SnapshotError(message) }
}

/// Consistent copies of SQLite files that their owners may be writing right now: the chunks of
/// a live store (`LogStore.snapshot`) and a component's own store (`diag collect --store-file`).
///
/// A copy goes through SQLite's online backup API in one step, so it reads one committed state
/// under a read transaction (WAL readers do not block the writer); a byte copy of a live WAL
/// database could mix pages of two states. The copy is switched to rollback journaling, so it
/// is one self-contained file.
public enum SQLiteSnapshot {
    /// Copies the database open on `source` to `destination` (which must not exist).
    ///
    /// The copy is a staged file: it is archived and removed, and the bundle is synced once
    /// complete, so it is written without syncs or a journal (a crash leaves no bundle at all).
    /// A file no one can change meanwhile is copied byte for byte (`QuiescentFileCopy`).
    public static func copy(_ source: SnapshotSource, to destination: String) throws {
        do {
            if try !QuiescentFileCopy.copy(source, to: destination) {
                try source.database.backup(toPath: destination, pagesPerStep: -1, durability: .temporary)
            }
            let copy = try Database(path: destination, options: .init(create: false))
            try copy.execute("PRAGMA synchronous = OFF")
            _ = try copy.scalarText("PRAGMA journal_mode = DELETE")
        } catch {
            throw SnapshotError.failure("cannot snapshot \(source.database.path): \(error)")
        }
    }

    /// Opens `path` for reading without changing it: read-only, so closing it never checkpoints
    /// or removes the owner's WAL. The first read maps the file, its WAL and shared memory, so
    /// the connection keeps them readable even if the owner deletes them afterwards. Where the
    /// shared memory cannot be made (a full file system) and no WAL frames lie beside the file,
    /// a connection with the WAL index in its own memory, holding the file's lock until it
    /// closes (`Database.openWithPrivateWALIndex`: read-write, with no frames to fold in).
    public static func openSource(_ path: String) throws -> SnapshotSource {
        do {
            let before = SnapshotSource.FileIdentity(path: path)
            let database = try Database.readingSchema(path: path, busyTimeoutMilliseconds: 10_000) {
                try Database(path: path, options: .init(readOnly: true, busyTimeoutMilliseconds: 10_000))
            }
            let after = SnapshotSource.FileIdentity(path: path)
            return SnapshotSource(database: database, identity: before == after ? before : nil)
        } catch let error as SQLiteError where error.isCorruption {
            throw SnapshotError("\(path) is not an SQLite database or is damaged (\(error))", isBadInput: true)
        } catch {
            throw SnapshotError.failure("cannot open \(path) for a snapshot: \(error)")
        }
    }
}
