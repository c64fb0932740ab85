import DiagStore
import Foundation

/// The time window a bundle covers: `start` inclusive, `end` exclusive (DiagStore's, as the
/// snapshot takes it).
public typealias BundleWindow = StoreWindow

extension BundleError {
    /// A snapshot's error as the bundle reports it: bad input (65) or a failure (1).
    init(_ error: SnapshotError) {
        self.init(error.isBadInput ? .badInput : .failure, error.message)
    }
}

extension SnapshotChunk {
    /// Where the summaries read this chunk's records.
    var summarySource: SummarySource {
        switch self {
        case .staged(_, let path): .file(path)
        case .sealed(let chunk): .database(chunk.reader)
        }
    }
}

extension SealedChunk {
    /// Archives the chunk from its file while SQLite guarantees no one changes it (see
    /// `QuiescentFileCopy.withQuiescentFile`), switched to a rollback journal on the way, as
    /// `PRAGMA journal_mode = DELETE` would; nil (nothing written) when that guarantee is not there.
    func archive(into writer: ArchiveWriter, entry: String) throws -> BundleFileDigest? {
        var digest: BundleFileDigest?
        do {
            let streamed = try QuiescentFileCopy.withQuiescentFile(stream) { file, size in
                digest = try writer.addFile(entry, from: file, size: size, adjust: Self.useRollbackJournal)
            }
            return streamed ? digest : nil
        } catch let error as SnapshotError {
            throw BundleError(error)
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
