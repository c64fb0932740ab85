import DiagModel
import Foundation

extension LogStore {
    /// Takes the chunks of the live store at `source` that hold records of `window` into a new
    /// store at `destination`, chunk by chunk, each as a consistent SQLite snapshot: what
    /// `diag collect` puts in a bundle. diagd may append, seal and expire meanwhile.
    ///
    /// Every chunk that may hold records of the window is opened before any is read, so a chunk
    /// that diagd expires meanwhile stays readable: the snapshot holds every record committed
    /// before it began. A sealed chunk inside the window is handed over as it is
    /// (`SnapshotChunk.sealed`, not copied: the caller takes it from its file, or copies it with
    /// `SealedChunk.copy(intoStore:)`); the others (the chunk being written, chunks that reach
    /// outside the window, which are trimmed to it) are copied under `destination/Persist/`,
    /// sealed and indexed, in rollback-journal mode. `extraRecords` (diagd's in-memory ring)
    /// become chunks of their own after the others. `chunkReady` gets each chunk once it is ready.
    ///
    /// Returns the `Info.json` of the snapshot, which lists every chunk; it is not written, and
    /// the sealed chunks' `recordCount` is 0 in it: a caller that reads their records anyway
    /// (the bundle's summaries) counts them then, and writes it (`StoreInfo.save`).
    public static func snapshot(
        of source: URL, to destination: URL, window: StoreWindow = StoreWindow(), extraRecords: [LogRecord] = [],
        chunkReady: (SnapshotChunk) throws -> Void
    ) throws -> StoreInfo {
        try WindowedSnapshot(source: source, window: window).write(to: destination, extraRecords: extraRecords, chunkReady: chunkReady)
    }

    /// Opens a live store read-only. A read-only open refuses a chunk file diagd has just
    /// created and not yet given its schema, so that moment is waited out with a few retries.
    public static func openLive(_ source: URL) throws -> LogStore {
        var attempt = 0
        while true {
            do {
                return try LogStore.open(at: source, options: .readOnly)
            } catch let error as StoreError where error.kind == .readOnly && attempt < 50 {
                attempt += 1
                usleep(20_000)
            } catch {
                throw SnapshotError.failure("cannot open the log store: \(error)")
            }
        }
    }

    /// Switches every chunk of the closed store at `store` to a rollback journal: chunks are
    /// written in WAL mode, and in a bundle each must be one self-contained file. Returns the
    /// chunk files' names, in order.
    public static func useRollbackJournals(in store: URL) throws -> [String] {
        let files = StoreLayout.chunkFiles(in: store)
        for file in files {
            let path = StoreLayout.chunkURL(store, file: file).path
            do {
                let database = try Database(path: path, options: .init(create: false))
                _ = try database.scalarText("PRAGMA journal_mode = DELETE")
            } catch {
                throw SnapshotError.failure("cannot finish the snapshot chunk \(path): \(error)")
            }
        }
        return files
    }
}

/// `LogStore.snapshot`: the pinning, the order and the copies; the trimming and measuring of
/// each chunk are in `WindowedSnapshot+Chunks.swift`.
struct WindowedSnapshot {
    var source: URL
    var window: StoreWindow

    func write(to destination: URL, extraRecords: [LogRecord], chunkReady: (SnapshotChunk) throws -> Void) throws -> StoreInfo {
        let info = try LogStore.openLive(source).info
        Self.allowEveryDescriptorPermitted()
        var pinned: [(chunk: ChunkInfo, source: SnapshotSource?, reader: Database?)] = try info.chunks
            .filter { !$0.sealed || window.overlaps(oldest: $0.oldestTimestamp, newest: $0.newestTimestamp) }
            .compactMap { chunk -> (chunk: ChunkInfo, source: SnapshotSource?, reader: Database?)? in
                // A burst's chunk is under `Persist/Burst/` until its seal moves it.
                try StoreLayout.openingChunk(at: StoreLayout.currentChunkURL(source, file: chunk.file).path) { path in
                    guard FileManager.default.fileExists(atPath: path) else { return nil }
                    let source = try SQLiteSnapshot.openSource(path)
                    return (chunk, source, chunk.sealed ? try Self.openReader(path, identity: source.identity) : nil)
                }
            }
        try FileManager.default.createDirectory(at: StoreLayout.chunkFolderURL(destination), withIntermediateDirectories: true)
        var chunks: [ChunkInfo] = []
        // Sealed chunks inside the window first: the caller streams them while the rest is copied.
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
            let target = StoreLayout.chunkURL(destination, file: chunk.file).path
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
            try chunkReady(.staged(file: extra.file, path: StoreLayout.chunkURL(destination, file: extra.file).path))
        }
        return StoreInfo(identifier: info.identifier, chunks: chunks)
    }

    /// A second connection to a sealed chunk, for reading its records, or nil when the file at
    /// `path` is not the one the streaming connection opened (the chunk is then copied instead).
    private static func openReader(_ path: String, identity: SnapshotSource.FileIdentity?) throws -> Database? {
        let reader = try SQLiteSnapshot.openSource(path)
        guard identity != nil, reader.identity == identity else { return nil }
        // Open until the caller is done, beside every other chunk's: keep each page cache small.
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

    static func size(of path: String) -> Int64 {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : 0
    }
}
