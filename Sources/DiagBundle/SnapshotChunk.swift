import DiagStore
import Foundation

/// One chunk of a bundle's log store, ready to be archived.
enum SnapshotChunk {
    /// A file complete in the staging folder: `file` is its name in `Persist/`, `path` where it is.
    case staged(file: String, path: String)
    /// A sealed chunk of the live store, archived straight from its file (`SealedChunk`).
    case sealed(SealedChunk)

    var file: String {
        switch self {
        case .staged(let file, _): file
        case .sealed(let chunk): chunk.file
        }
    }

    /// Where the summaries read this chunk's records.
    var summarySource: SummarySource {
        switch self {
        case .staged(_, let path): .file(path)
        case .sealed(let chunk): .database(chunk.reader)
        }
    }
}

/// A sealed chunk of the live store, pinned open before the collection copies anything: one
/// connection to stream the file into the archive (`stream`), one for the summaries (`reader`).
///
/// A sealed chunk's records never change (sealing adds indexes; `diag index` may later add the
/// search index; expiry deletes the whole file), so the two connections see the same records,
/// and an open connection keeps a deleted file readable.
struct SealedChunk {
    var file: String
    var stream: SnapshotSource
    var reader: Database

    /// Archives the chunk from its file while SQLite guarantees no one changes it (see
    /// `QuiescentFileCopy.withQuiescentFile`), switched to a rollback journal on the way, as
    /// `PRAGMA journal_mode = DELETE` would; nil (nothing written) when that guarantee is not there.
    func archive(into writer: ArchiveWriter, entry: String) throws -> BundleFileDigest? {
        var digest: BundleFileDigest?
        let streamed = try QuiescentFileCopy.withQuiescentFile(stream) { file, size in
            digest = try writer.addFile(entry, from: file, size: size, adjust: Self.useRollbackJournal)
        }
        return streamed ? digest : nil
    }

    /// Bytes 18 and 19 of an SQLite header are the file format's write and read versions: 2 in
    /// WAL mode, 1 with a rollback journal. Rewrites a 2 to 1 in `bytes`, which start at `offset`.
    static func useRollbackJournal(_ bytes: UnsafeMutableRawBufferPointer, at offset: Int64) {
        for position: Int64 in 18...19 where position >= offset && position < offset + Int64(bytes.count) {
            let index = Int(position - offset)
            if bytes[index] == 2 { bytes[index] = 1 }
        }
    }
}

/// Where the summaries read one chunk: a staged file, or a sealed chunk of the live store through
/// the connection pinned for them.
enum SummarySource {
    case file(String)
    case database(Database)

    func open() throws -> Database {
        switch self {
        case .file(let path): try Database(path: path, options: .init(readOnly: true))
        case .database(let database): database
        }
    }

    var name: String {
        switch self {
        case .file(let path): path
        case .database(let database): database.path
        }
    }
}
