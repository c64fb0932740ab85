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

/// Takes the chunks of a live log store that hold records of a window into a bundle's store,
/// chunk by chunk, each as a consistent SQLite snapshot.
///
/// Every chunk that may hold records of the window is opened before any is read, so a chunk
/// that diagd expires meanwhile stays readable: the snapshot holds every record committed before
/// the collection began. A sealed chunk inside the window goes to the archive straight from its
/// file (`SealedChunk`); the others (the chunk being written, chunks that reach outside the window,
/// which are trimmed to it) are copied into the staging folder first.
struct LogStoreSnapshot {
    var source: URL
    var window: BundleWindow

    /// Writes the staged chunks under `destination/Persist/` and returns the store's `Info.json`,
    /// which lists every chunk; the sealed chunks' `recordCount` is left at 0 for the summaries,
    /// which count their records anyway (`SummaryJob`). `extraRecords` (diagd's in-memory ring)
    /// become chunks of their own after the others. `chunkReady` gets each chunk once it is ready:
    /// a staged file complete and final, or a sealed chunk to stream.
    func write(to destination: URL, extraRecords: [LogRecord] = [], chunkReady: (SnapshotChunk) throws -> Void = { _ in }) throws -> StoreInfo {
        let info = try Self.openLive(source).info
        let persist = source.appendingPathComponent("Persist", isDirectory: true)
        Self.allowEveryDescriptorPermitted()
        var pinned: [(chunk: ChunkInfo, source: SnapshotSource?, reader: Database?)] = try info.chunks
            .filter { !$0.sealed || window.overlaps(oldest: $0.oldestTimestamp, newest: $0.newestTimestamp) }
            .compactMap { chunk in
                let path = persist.appendingPathComponent(chunk.file).path
                guard FileManager.default.fileExists(atPath: path) else { return nil }
                let source = try SQLiteSnapshot.openSource(path)
                return (chunk, source, chunk.sealed ? try Self.openReader(path, identity: source.identity) : nil)
            }
        let destinationPersist = destination.appendingPathComponent("Persist", isDirectory: true)
        try FileManager.default.createDirectory(at: destinationPersist, withIntermediateDirectories: true)
        var chunks: [ChunkInfo] = []
        // Sealed chunks inside the window first: the archive streams them while the rest is copied.
        for index in pinned.indices {
            guard let reader = pinned[index].reader, let stream = pinned[index].source else { continue }
            let measured = try measureSealed(reader, chunk: pinned[index].chunk, size: Self.size(of: stream.database.path))
            // A sealed chunk diagd has not indexed yet is copied and indexed like the others.
            guard let oldest = measured.oldestTimestamp, let newest = measured.newestTimestamp,
                  measured.sealed, measured.searchIndex, window.contains(oldest: oldest, newest: newest)
            else { continue }
            pinned[index].source = nil
            chunks.append(measured)
            try chunkReady(.sealed(SealedChunk(file: measured.file, stream: stream, reader: reader)))
        }
        for index in pinned.indices {
            guard let source = pinned[index].source else { continue }
            let chunk = pinned[index].chunk
            let target = destinationPersist.appendingPathComponent(chunk.file).path
            try SQLiteSnapshot.copy(source, to: target)
            // Closed once copied, so the page caches of a store's many chunks never add up.
            pinned[index] = (chunk, nil, nil)
            if let copied = try trim(target, chunk: chunk) {
                chunks.append(copied)
                try chunkReady(.staged(file: copied.file, path: target))
            }
        }
        let nextSequence = (info.chunks.map(\.sequence).max() ?? 0) + 1
        for extra in try writeExtra(extraRecords, into: destination, firstSequence: nextSequence) {
            chunks.append(extra)
            try chunkReady(.staged(file: extra.file, path: destinationPersist.appendingPathComponent(extra.file).path))
        }
        return StoreInfo(identifier: info.identifier, chunks: chunks)
    }

    /// A second connection to a sealed chunk, for the summaries, or nil when the file at `path`
    /// is not the one the streaming connection opened (the chunk is then copied instead).
    private static func openReader(_ path: String, identity: SnapshotSource.FileIdentity?) throws -> Database? {
        let reader = try SQLiteSnapshot.openSource(path)
        guard identity != nil, reader.identity == identity else { return nil }
        // Open until the summaries end, beside every other chunk's: keep each page cache small.
        try reader.database.execute("PRAGMA cache_size = -256")
        return reader.database
    }

    /// A pinned chunk holds about six descriptors (two connections, each with the file and its
    /// WAL): the soft limit (often 1,024) is raised to the hard one, so a large store fits.
    private static func allowEveryDescriptorPermitted() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    private static func size(of path: String) -> Int64 {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : 0
    }

    /// Writes records that are in no chunk through a store of their own, then moves its chunks
    /// in under the next sequence numbers, in rollback-journal mode like the others.
    private func writeExtra(_ records: [LogRecord], into destination: URL, firstSequence: Int64) throws -> [ChunkInfo] {
        guard !records.isEmpty else { return [] }
        let folder = destination.appendingPathComponent(".memory", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let store = try LogStore.open(at: folder, create: true, options: .init(sealOnRotation: false))
            for start in stride(from: 0, to: records.count, by: 5_000) {
                try store.append(records[start..<min(start + 5_000, records.count)])
            }
            try store.close()
        } catch {
            throw BundleError.failure("cannot add diagd's in-memory records to the snapshot: \(error)")
        }
        let persist = folder.appendingPathComponent("Persist", isDirectory: true)
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: persist.path)) ?? []).filter { $0.hasSuffix(".chunk.sqlite") }.sorted()
        var chunks: [ChunkInfo] = []
        for (offset, file) in files.enumerated() {
            let sequence = firstSequence + Int64(offset)
            let digits = String(sequence)
            let name = String(repeating: "0", count: max(0, 16 - digits.count)) + digits + ".chunk.sqlite"
            let target = destination.appendingPathComponent("Persist").appendingPathComponent(name).path
            do {
                let database = try Database(path: persist.appendingPathComponent(file).path, options: .init(create: false))
                _ = try database.scalarText("PRAGMA journal_mode = DELETE")
            } catch {
                throw BundleError.failure("cannot finish the chunk of in-memory records: \(error)")
            }
            guard rename(persist.appendingPathComponent(file).path, target) == 0 else {
                throw BundleError.failure("cannot move the chunk of in-memory records to \(target): \(String(cString: strerror(errno)))")
            }
            if let chunk = try trim(target, chunk: ChunkInfo(file: name, sequence: sequence)) { chunks.append(chunk) }
        }
        return chunks
    }

    /// Opens the live store read-only. A read-only open refuses a chunk file diagd has just
    /// created and not yet given its schema, so that moment is waited out with a few retries.
    static func openLive(_ source: URL) throws -> LogStore {
        var attempt = 0
        while true {
            do {
                return try LogStore.open(at: source, options: .readOnly)
            } catch let error as StoreError where error.kind == .readOnly && attempt < 50 {
                attempt += 1
                usleep(20_000)
            } catch {
                throw BundleError.failure("cannot open the log store: \(error)")
            }
        }
    }

    /// Removes the copy's records outside the window and measures what is left; nil (and the
    /// file removed) when nothing is left.
    private func trim(_ path: String, chunk: ChunkInfo) throws -> ChunkInfo? {
        let remaining: Int64
        do {
            let database = try Database(path: path, options: .init(create: false))
            var figures = try measure(database)
            if figures.count > 0, let oldest = figures.oldest, let newest = figures.newest,
               !window.contains(oldest: oldest, newest: newest)
            {
                // A staged copy: synced as part of the bundle, not by itself.
                try database.execute("PRAGMA synchronous = OFF")
                try database.execute("DELETE FROM records WHERE timestamp < ? OR timestamp >= ?",
                                     [window.start ?? Int64.min, window.end ?? Int64.max])
                // The search index is contentless: its entries cannot be removed one by one, so a
                // trimmed chunk's index is dropped here and built again below from what is left.
                try database.execute("DROP TABLE IF EXISTS message_search")
                try database.execute("VACUUM")
                figures = try measure(database)
            }
            remaining = figures.count
        } catch {
            throw BundleError.failure("cannot trim the snapshot of \(chunk.file) to the window: \(error)")
        }
        guard remaining > 0 else {
            try? FileManager.default.removeItem(atPath: path)
            return nil
        }
        // Every chunk of a bundle is final: sealed, with its message search index, so that a
        // reader's CONTAINS finds its records through the index instead of a scan.
        do {
            return try SnapshotChunkFinisher.finish(path: path, chunk: ChunkInfo(file: chunk.file, sequence: chunk.sequence))
        } catch {
            throw BundleError.failure("cannot index the snapshot of \(chunk.file): \(error)")
        }
    }

    /// A sealed chunk's figures read through `database`, but its record count (0 here): the
    /// oldest and newest times come from its timestamp index, one lookup each, while a count
    /// would read a whole index. `size` is its file's size.
    private func measureSealed(_ database: Database, chunk: ChunkInfo, size: Int64) throws -> ChunkInfo {
        do {
            let names = try indexNames(database)
            let oldest = try database.scalarInt("SELECT min(timestamp) FROM records")
            let newest = try database.scalarInt("SELECT max(timestamp) FROM records")
            return ChunkInfo(file: chunk.file, sequence: chunk.sequence, sealed: names.contains("records_timestamp"),
                             recordCount: 0, oldestTimestamp: oldest, newestTimestamp: newest,
                             byteCount: size, searchIndex: names.contains("message_search"))
        } catch {
            throw BundleError.failure("cannot read the figures of \(database.path): \(error)")
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
