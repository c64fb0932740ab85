import DiagModel
import DiagStore
import Foundation

/// The time window a bundle covers: `start` inclusive, `end` exclusive, nanoseconds since the epoch.
public struct BundleWindow: Sendable, Hashable {
    public var start: Int64?
    public var end: Int64?

    public init(start: Int64? = nil, end: Int64? = nil) {
        self.start = start
        self.end = end
    }

    func contains(oldest: Int64, newest: Int64) -> Bool {
        (start.map { oldest >= $0 } ?? true) && (end.map { newest < $0 } ?? true)
    }

    func overlaps(oldest: Int64?, newest: Int64?) -> Bool {
        guard let oldest, let newest else { return true }
        if let start, newest < start { return false }
        if let end, oldest >= end { return false }
        return true
    }
}

/// Copies the chunks of a live log store that hold records of a window into a new store
/// directory, chunk by chunk, each as a consistent SQLite snapshot.
///
/// Every chunk that may hold records of the window is opened before any is copied, so a chunk
/// that diagd expires meanwhile stays readable: the snapshot holds every record committed before
/// the collection began. Chunks that reach outside the window are trimmed to it.
struct LogStoreSnapshot {
    var source: URL
    var window: BundleWindow

    /// Writes `destination/Info.json` and `destination/Persist/…`; returns the new store's figures.
    func write(to destination: URL) throws -> StoreInfo {
        let store: LogStore
        do {
            store = try LogStore.open(at: source, options: .readOnly)
        } catch {
            throw BundleError.failure("cannot open the log store: \(error)")
        }
        let info = store.info
        let persist = source.appendingPathComponent("Persist", isDirectory: true)
        let pinned: [(ChunkInfo, Database)] = try info.chunks
            .filter { !$0.sealed || window.overlaps(oldest: $0.oldestTimestamp, newest: $0.newestTimestamp) }
            .compactMap { chunk in
                let path = persist.appendingPathComponent(chunk.file).path
                guard FileManager.default.fileExists(atPath: path) else { return nil }
                return (chunk, try SQLiteSnapshot.openSource(path))
            }
        let destinationPersist = destination.appendingPathComponent("Persist", isDirectory: true)
        try FileManager.default.createDirectory(at: destinationPersist, withIntermediateDirectories: true)
        var chunks: [ChunkInfo] = []
        for (chunk, database) in pinned {
            let target = destinationPersist.appendingPathComponent(chunk.file).path
            try SQLiteSnapshot.copy(database, to: target)
            if let copied = try trim(target, chunk: chunk) { chunks.append(copied) }
        }
        let snapshotInfo = StoreInfo(identifier: info.identifier, chunks: chunks)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try encoder.encode(snapshotInfo).write(to: destination.appendingPathComponent("Info.json"))
        } catch {
            throw BundleError.failure("cannot write the snapshot's Info.json: \(error.localizedDescription)")
        }
        return snapshotInfo
    }

    /// Removes the copy's records outside the window and measures what is left; nil (and the
    /// file removed) when nothing is left.
    private func trim(_ path: String, chunk: ChunkInfo) throws -> ChunkInfo? {
        do {
            let database = try Database(path: path, options: .init(create: false))
            var figures = try measure(database)
            if figures.count > 0, let oldest = figures.oldest, let newest = figures.newest,
               !window.contains(oldest: oldest, newest: newest)
            {
                try database.execute("DELETE FROM records WHERE timestamp < ? OR timestamp >= ?",
                                     [window.start ?? Int64.min, window.end ?? Int64.max])
                // The search index is contentless: its entries cannot be removed one by one, so a
                // trimmed chunk goes without it (queries then scan the chunk, with the same result).
                try database.execute("DROP TABLE IF EXISTS message_search")
                try database.execute("VACUUM")
                figures = try measure(database)
            }
            guard figures.count > 0 else {
                try? FileManager.default.removeItem(atPath: path)
                return nil
            }
            let names = try indexNames(database)
            let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
            return ChunkInfo(file: chunk.file, sequence: chunk.sequence, sealed: names.contains("records_timestamp"),
                             recordCount: figures.count, oldestTimestamp: figures.oldest, newestTimestamp: figures.newest,
                             byteCount: size, searchIndex: names.contains("message_search"))
        } catch let error as BundleError {
            throw error
        } catch {
            throw BundleError.failure("cannot trim the snapshot of \(chunk.file) to the window: \(error)")
        }
    }

    private func measure(_ database: Database) throws -> (count: Int64, oldest: Int64?, newest: Int64?) {
        let statement = try database.prepare("SELECT count(*), min(timestamp), max(timestamp) FROM records")
        guard try statement.step() else { return (0, nil, nil) }
        return (statement.int64(at: 0), statement.optionalInt64(at: 1), statement.optionalInt64(at: 2))
    }

    private func indexNames(_ database: Database) throws -> Set<String> {
        let statement = try database.prepare("SELECT name FROM sqlite_master WHERE type IN ('index', 'table')")
        var names: Set<String> = []
        while try statement.step() { names.insert(statement.string(at: 0)) }
        return names
    }
}
