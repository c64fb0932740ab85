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
                try buildIndexes(database)
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

    /// The seal's work in a chunk's file: the schema's indexes and the positions table in one
    /// transaction, then the planner's statistics.
    private static func buildIndexes(_ database: Database) throws {
        try database.inTransaction(.immediate) {
            for index in ChunkSchema.indexes { try database.execute(index.sql) }
            try MessageBlocks.buildPositionBlocks(database)
        }
        try database.execute("PRAGMA analysis_limit = 400; ANALYZE")
    }

    /// Seals a chunk written in a burst (`LogStore.Options.writesBurstsInLargePages`), in 64 KiB
    /// pages at `burstPath`, into a copy of it in 4 KiB pages at `sealedPath`: a look-up by id or
    /// by index then reads 4 KiB for its few hundred bytes, not 64 (docs/STORE.md, "Chunks
    /// written in a burst"). In order:
    /// 1. the burst's WAL is folded into its file (a reader that opened the file before it is
    ///    removed may find no WAL beside it, and must find every row in it);
    /// 2. its tables are copied into `<sealedPath>.sealing` (SQLite's transfer of whole records,
    ///    ids kept, no journal), where the seal's indexes and statistics are built;
    /// 3. the copy is synced, put in WAL mode as every sealed chunk is, and renamed to
    ///    `sealedPath`, and the folder synced.
    /// Nil, with nothing changed, when a reader kept the WAL from being folded (a read under way
    /// for the whole busy timeout, a `diag show` paused in a pager): the next pass tries again.
    /// The caller records the chunk as sealed, then removes the burst's files
    /// (`removeChunkFiles`). Until the rename, the burst's file is the chunk; after it, the copy
    /// (`StoreLayout.chunkPath(persist:file:)` looks there first), and a writer that finds both
    /// removes the burst's (`LogStore.removeSealLeftovers`).
    static func sealCopy(burstPath: String, sealedPath: String, chunk: ChunkInfo, pace: ((_ lookNow: Bool) -> Void)? = nil) throws -> ChunkInfo? {
        let temporary = sealedPath + StoreLayout.sealingSuffix
        do {
            pace?(true)
            let source = try Database(path: burstPath, options: .init(create: false))
            try source.execute(ChunkSchema.writerPragmas)
            guard try foldWholly(source) else { return nil }
            let version = try source.userVersion()
            let tables = try ChunkTables(source)
            guard tables.hasRecords else {
                throw StoreError(.badChunk, path: burstPath, reason: "the chunk has no records table to seal")
            }
            try removeChunkFiles(temporary)
            var measured: ChunkInfo
            do {
                let copy = try Database(path: temporary)
                try copy.execute("PRAGMA page_size = 4096; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
                let attach = try copy.prepare("ATTACH DATABASE ? AS burst")
                try attach.bind([burstPath])
                _ = try attach.step()
                let work = {
                    try copy.inTransaction(.immediate) {
                        try copy.execute(ChunkSchema.createRecords)
                        try copy.execute("INSERT INTO main.records SELECT * FROM burst.records")
                        if tables.hasMessageBlocks {
                            try copy.execute(MessageBlocks.create)
                            try copy.execute("INSERT INTO main.\(MessageBlocks.table) SELECT * FROM burst.\(MessageBlocks.table)")
                        }
                        if tables.hasRecordMasks {
                            try copy.execute(MessageBlocks.createMasks)
                            try copy.execute("INSERT INTO main.\(MessageBlocks.masksTable) SELECT * FROM burst.\(MessageBlocks.masksTable)")
                        }
                        try copy.setUserVersion(version)
                    }
                    try copy.execute("DETACH DATABASE burst")
                    try buildIndexes(copy)
                }
                if let pace {
                    try copy.withProgressHandler(every: paceInstructions, { pace(false) }, work)
                } else {
                    try work()
                }
                measured = try measure(copy, chunk: chunk)
                // Every sealed chunk is in WAL mode, as its search index and expiry write it so.
                _ = try copy.scalarText("PRAGMA journal_mode = WAL")
            }
            try syncFile(temporary)
            guard rename(temporary, sealedPath) == 0 else {
                throw StoreError(.io, path: sealedPath, reason: "cannot rename the sealed copy into place: \(String(cString: strerror(errno)))")
            }
            try syncFile((sealedPath as NSString).deletingLastPathComponent)
            measured.byteCount = diskSize(of: sealedPath)
            measured.sealed = true
            return measured
        } catch {
            try? removeChunkFiles(temporary)
            throw StoreError.chunk(burstPath, error)
        }
    }

    /// Folds the whole WAL into the file and empties it; false when a reader still reading
    /// older frames kept the checkpoint from finishing within the busy timeout.
    private static func foldWholly(_ database: Database) throws -> Bool {
        let statement = try database.prepare("PRAGMA wal_checkpoint(TRUNCATE)")
        return try statement.step() && statement.int64(at: 0) == 0
    }

    /// Removes a chunk's file and the files SQLite keeps beside it; a file already gone is no
    /// error. `doing` names the file in an error ("cannot remove <doing>: …").
    static func removeChunkFiles(_ path: String, doing: String = "a chunk file") throws {
        for file in [path] + StoreLayout.chunkSideSuffixes.map({ path + $0 }) {
            guard unlink(file) == 0 || errno == ENOENT else {
                throw StoreError(.io, path: file, reason: "cannot remove \(doing): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// `fsync` of a file or a folder.
    private static func syncFile(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw StoreError(.io, path: path, reason: "cannot open to sync: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw StoreError(.io, path: path, reason: "cannot sync: \(String(cString: strerror(errno)))") }
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
