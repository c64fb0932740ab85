import Foundation

/// Closing work on a chunk that is no longer written: indexes, statistics, a checkpoint.
enum ChunkSealer {
    /// Builds the indexes of the schema and the message blocks' positions table, refreshes the
    /// planner's statistics and folds the WAL into the file. Returns the chunk's figures as they now are.
    ///
    /// `pace`, when given, is called before the work (`lookNow` true) and then about every
    /// `paceInstructions` SQLite instructions of it (a progress handler: the index builds of a
    /// 64 MB chunk take half a second), and may sleep there: diagd's finisher waits so while a
    /// reader reads. The WAL's fold is one step of SQLite's and is not paced inside.
    static func seal(path: String, chunk: ChunkInfo, pace: ((_ lookNow: Bool) -> Void)? = nil) throws -> ChunkInfo {
        do {
            pace?(true)
            let database = try Database(path: path, options: .init(create: false))
            let seal = {
                try database.execute(ChunkSchema.writerPragmas)
                try database.inTransaction(.immediate) {
                    for index in ChunkSchema.indexes { try database.execute(index.sql) }
                    try MessageBlocks.buildPositionBlocks(database)
                }
                try database.execute("PRAGMA analysis_limit = 400; ANALYZE")
            }
            if let pace {
                try database.withProgressHandler(every: paceInstructions, { pace(false) }, seal)
            } else {
                try seal()
            }
            try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            var sealed = try measure(database, chunk: chunk)
            sealed.sealed = true
            return sealed
        } catch {
            throw StoreError.chunk(path, error)
        }
    }

    /// SQLite instructions between two calls of a seal's `pace`: `CPUSharePacer` looks at the
    /// clocks every 256 calls, a few milliseconds of index building.
    static let paceInstructions: Int32 = 1_000

    /// Count, time range and size of a chunk, read from the file.
    static func measure(_ database: Database, chunk: ChunkInfo) throws -> ChunkInfo {
        var measured = chunk
        let statement = try database.prepare("SELECT count(*), min(timestamp), max(timestamp) FROM records")
        if try statement.step() {
            measured.recordCount = statement.int64(at: 0)
            measured.oldestTimestamp = statement.optionalInt64(at: 1)
            measured.newestTimestamp = statement.optionalInt64(at: 2)
        }
        measured.byteCount = diskSize(of: database.path)
        let indexes = try database.prepare("SELECT name FROM sqlite_master WHERE type IN ('index', 'table') AND name IN (?, ?)")
        try indexes.bind(["records_timestamp", ChunkSchema.searchTable])
        var names: Set<String> = []
        while try indexes.step() { names.insert(indexes.string(at: 0)) }
        measured.sealed = names.contains("records_timestamp")
        measured.searchIndex = names.contains(ChunkSchema.searchTable)
        // A sealed chunk's rows keep their order (only deletions touch them): known, not walked again
        // (a search index built after the seal measures the chunk once more).
        measured.timeOrdered = measured.sealed ? try chunk.timeOrdered ?? idsFollowTime(database) : nil
        // Likewise the time samples (65 rowid lookups): kept in Info.json, so that a read of a
        // window need not open the chunk to sample it before its workers start.
        measured.timeSamples = measured.sealed ? chunk.timeSamples ?? ChunkTimeSamples(database: database)?.times : nil
        // Measured afresh each time (a millisecond): the range they cut may have narrowed.
        measured.timeBuckets = measured.sealed ? ChunkTimeBuckets.measure(database, oldest: measured.oldestTimestamp, newest: measured.newestTimestamp) : nil
        return measured
    }

    /// Whether the chunk's ids follow its records' time (`ChunkInfo.timeOrdered`): its timestamp
    /// index walked in (timestamp, id) order meets the ids in ascending order. The index alone
    /// is read (it covers both), about 4 MiB for 200,000 records. `diag import` of a file in
    /// time order writes such chunks; diagd, whose clients each send at their own pace, rarely.
    static func idsFollowTime(_ database: Database) throws -> Bool {
        let statement = try database.prepare("SELECT id FROM records INDEXED BY \(StoreLayout.timestampIndex) ORDER BY timestamp, id")
        var last = Int64.min
        while try statement.step() {
            let id = statement.int64(at: 0)
            guard id > last else { return false }
            last = id
        }
        return true
    }

    /// Bytes the chunk takes on disk: the file and its WAL.
    static func diskSize(of path: String) -> Int64 {
        [path, path + "-wal"].reduce(0) { total, file in
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value ?? 0
            return total + size
        }
    }
}
