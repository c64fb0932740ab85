import DiagModel
import Foundation

extension LogStore {
    /// Chunks no longer written whose seal or message search index is still to be built.
    public var closedChunksAwaitingSearchIndex: Int {
        lock.withLock {
            state.info.chunks.filter { !$0.mayBeAppendedTo(state) && (!$0.sealed || !$0.searchIndex) }.count
        }
    }

    /// Builds the message search index of every sealed chunk that lacks one: a contentless FTS5
    /// trigram table over each message folded for case and diacritics, rowid = `records.id`.
    /// Meant to run off the ingest path (it takes seconds per full chunk). Returns the number
    /// of chunks indexed. `shouldContinue` is asked before each chunk (a daemon that stops);
    /// `pace` is called for each record indexed (a `CPUSharePacer` holds diagd's to its share);
    /// at most `limit` chunks are indexed, the oldest first.
    @discardableResult
    public func buildSearchIndexes(limit: Int = .max, shouldContinue: () -> Bool = { true }, pace: () -> Void = {}) throws -> Int {
        var built = 0
        try forEachClaimedChunk(limit: limit, where: { _, chunk in chunk.sealed && !chunk.searchIndex }) { chunk in
            guard shouldContinue() else { return }
            let path = chunkPath(chunk.file)
            guard FileManager.default.fileExists(atPath: path) else { return }
            let indexed = try MessageSearchIndex.build(path: path, chunk: chunk, pace: pace)
            try lock.withLock {
                guard let index = state.info.chunks.firstIndex(where: { $0.file == chunk.file }) else { return }
                state.info.chunks[index] = indexed
                try saveInfoLocked()
            }
            built += 1
        }
        return built
    }
}

/// The search index of one chunk.
enum MessageSearchIndex {
    /// FTS5's `hashsize` while an index is built (`fill`).
    static let termBufferBytes = 8 << 20

    /// The folding of the indexed text: the needles of `StoreFilter.messageSearch` must use it.
    static func fold(_ message: String) -> String {
        TextFolding.fold(message, caseInsensitive: true, diacriticInsensitive: true)
    }

    static func build(path: String, chunk: ChunkInfo, pace: () -> Void = {}) throws -> ChunkInfo {
        do {
            let database = try Database(path: path, options: .init(create: false))
            try database.execute(ChunkSchema.writerPragmas)
            // Built in one transaction: a table that exists is complete (another process built it).
            guard try !ChunkTables(database).hasSearchIndex else { return try ChunkSealer.measure(database, chunk: chunk) }
            try database.inTransaction(.immediate) { try fill(database, pace: pace) }
            try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            return try ChunkSealer.measure(database, chunk: chunk)
        } catch {
            throw StoreError.chunk(path, error)
        }
    }

    /// Creates the search table and indexes every record's message; inside the caller's transaction.
    static func fill(_ database: Database, pace: () -> Void = {}) throws {
        try database.execute(ChunkSchema.createSearch)
        // FTS5 gathers the terms of the rows inserted in memory and writes a segment each time
        // they pass `hashsize` (1 MiB by default), then merges the segments. At 8 MiB, a chunk of
        // 195,000 diagd records was indexed in 1.43 s instead of 1.96 s (`sqlite3`, the same
        // folded messages), for 10 MiB more memory while it runs; 16 and 32 MiB gained nothing
        // more. The value is kept in the index's config table, which only inserts read.
        try database.execute("INSERT INTO \(ChunkSchema.searchTable) (\(ChunkSchema.searchTable), rank) VALUES ('hashsize', \(Self.termBufferBytes))")
        let rows = try database.prepare("SELECT id, eventMessage FROM records")
        let insert = try database.prepare("INSERT INTO \(ChunkSchema.searchTable) (rowid, message) VALUES (?, ?)")
        while try rows.step() {
            try insert.bind(rows.int64(at: 0), at: 1)
            try insert.bind(fold(rows.string(at: 1)), at: 2)
            _ = try insert.step()
            insert.reset()
            pace()
        }
    }
}
