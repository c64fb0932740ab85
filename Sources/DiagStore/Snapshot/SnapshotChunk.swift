import Foundation

/// The time window a snapshot covers: `start` inclusive, `end` exclusive, nanoseconds since the
/// epoch; nil for no bound.
public struct StoreWindow: Sendable, Hashable {
    public var start: Int64?
    public var end: Int64?

    public init(start: Int64? = nil, end: Int64? = nil) {
        self.start = start
        self.end = end
    }

    /// True when every record from `oldest` to `newest` is inside the window.
    public func contains(oldest: Int64, newest: Int64) -> Bool {
        (start.map { oldest >= $0 } ?? true) && (end.map { newest < $0 } ?? true)
    }

    /// True when some of `oldest`…`newest` may be inside the window (true when unknown).
    public func overlaps(oldest: Int64?, newest: Int64?) -> Bool {
        guard let oldest, let newest else { return true }
        if let start, newest < start { return false }
        if let end, oldest >= end { return false }
        return true
    }
}

/// One chunk of a snapshot, handed to the caller once it is ready.
public enum SnapshotChunk {
    /// A file complete in the destination: `file` is its name in `Persist/`, `path` where it is.
    case staged(file: String, path: String)
    /// A sealed chunk of the live store inside the window, left where it is for the caller to
    /// take from its file (`SealedChunk`): it is not in the destination.
    case sealed(SealedChunk)

    public var file: String {
        switch self {
        case .staged(let file, _): file
        case .sealed(let chunk): chunk.file
        }
    }
}

/// A sealed chunk of the live store, pinned open before the snapshot copies anything: one
/// connection to stream the file (`stream`), one for reading its records (`reader`).
///
/// A sealed chunk's records never change (sealing adds indexes; `diag index` may later add the
/// search index; expiry deletes the whole file), so the two connections see the same records,
/// and an open connection keeps a deleted file readable.
public struct SealedChunk {
    public var file: String
    public var stream: SnapshotSource
    public var reader: Database

    public init(file: String, stream: SnapshotSource, reader: Database) {
        self.file = file
        self.stream = stream
        self.reader = reader
    }

    /// Copies the chunk into the store at `store`, under its own name, through `SQLiteSnapshot`:
    /// what a caller that cannot take the file as it is does with it.
    public func copy(intoStore store: URL) throws {
        try SQLiteSnapshot.copy(stream, to: StoreLayout.chunkURL(store, file: file).path)
    }

    /// Bytes 18 and 19 of an SQLite header are the file format's write and read versions: 2 in
    /// WAL mode, 1 with a rollback journal. Rewrites a 2 to 1 in `bytes`, which start at `offset`,
    /// so that a byte copy of a WAL chunk reads as `PRAGMA journal_mode = DELETE` would leave it.
    public static func useRollbackJournal(_ bytes: UnsafeMutableRawBufferPointer, at offset: Int64) {
        for position: Int64 in 18...19 where position >= offset && position < offset + Int64(bytes.count) {
            let index = Int(position - offset)
            if bytes[index] == 2 { bytes[index] = 1 }
        }
    }
}
