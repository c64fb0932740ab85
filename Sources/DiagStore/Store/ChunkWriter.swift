import CSQLite
import DiagModel

/// The open chunk: one connection in WAL mode and the cached INSERT of the ingest path; its
/// checkpoints run on a thread of their own (`WALCheckpointer`).
///
/// The open chunk has no secondary index; `ChunkSealer` builds them once it is closed. It has
/// the message block sets (`MessageBlocks`), written with the rows they cover.
final class ChunkWriter {
    let path: String
    private let database: Database
    private let insert: Statement
    /// Nil for a chunk that already held rows without block sets (written by an older version):
    /// sets for its new rows alone would hide the old ones from a search.
    private let blocks: MessageBlockWriter?
    private let pageCount: Statement
    private let pageSize: Int64
    /// WAL frames between two checkpoints: SQLite's own default (32 MiB of 4 KiB pages); with
    /// `foldsAtSeal`, more than a chunk fills in a burst (`LogStore` gives twice its size limit),
    /// so that only a chunk written slowly, a few records a commit, is checkpointed before its
    /// seal (it writes the same pages again at each commit: its WAL would grow without bound).
    let checkpointFrames: Int64
    /// Frames in the WAL after this connection's last commit (SQLite's WAL hook), and what
    /// they were when a checkpoint was last asked for.
    private let walFrames: UnsafeMutablePointer<Int32>
    private var framesAtLastCheckpoint: Int64 = 0
    private var checkpointer: WALCheckpointer?

    /// Whether the chunk's WAL is left whole until the chunk is sealed (`foldsWALAtSeal`): no
    /// checkpoint while it is written, none when this connection closes, unless
    /// `checkpointOnClose()` asks for one.
    let foldsAtSeal: Bool

    /// True for a burst's chunk, under `Persist/Burst/` (`LogStore.Options.writesBurstsInLargePages`).
    let isBurst: Bool

    /// Opens (creating if needed) the chunk at `path` for appending. `foldsAtSeal`: see
    /// `LogStore.Options.foldsWALAtSeal`. `pageSize`: the page size of a chunk created here
    /// (SQLite's 4 KiB when nil); a chunk that exists keeps its own.
    init(path: String, pageSize requestedPageSize: Int? = nil, checkpointFrames: Int64 = 8_192, foldsAtSeal: Bool = false) throws {
        self.path = path
        isBurst = StoreLayout.isBurstChunk(path)
        self.foldsAtSeal = foldsAtSeal
        self.checkpointFrames = checkpointFrames
        walFrames = .allocate(capacity: 1)
        walFrames.initialize(to: 0)
        do {
            let database = try Database(path: path)
            self.database = database
            // Before anything else: a file's page size is set when its first page is written.
            if let requestedPageSize { try database.execute("PRAGMA page_size = \(requestedPageSize)") }
            try database.execute(ChunkSchema.writerPragmas)
            let version = try database.userVersion()
            if version == 0 {
                try database.inTransaction(.immediate) {
                    try database.execute(ChunkSchema.createRecords)
                    try database.execute(MessageBlocks.create)
                    try database.execute(MessageBlocks.createMasks)
                    try database.setUserVersion(ChunkSchema.version)
                }
            } else if version != ChunkSchema.version {
                throw StoreError(.badChunk, path: path,
                                 reason: "chunk has schema version \(version); this writer appends to version \(ChunkSchema.version) only")
            }
            // The positions table covers the blocks as they were at the seal: a chunk written
            // again (it never is, once sealed) would have blocks it does not cover.
            try database.execute("DROP TABLE IF EXISTS \(MessageBlocks.positionsTable)")
            blocks = try Self.blockWriter(database)
            insert = try database.prepare(ChunkSchema.insert)
            pageCount = try database.prepare("PRAGMA page_count")
            pageSize = try database.scalarInt("PRAGMA page_size") ?? 4096
            // Last: nothing may throw once the thread runs (a deinit that never runs would not stop it).
            try database.execute("PRAGMA wal_autocheckpoint = 0")
            if foldsAtSeal {
                // The seal folds the WAL into the file (`ChunkSealer`); closing this connection
                // must not do it on the writer's thread.
                try Self.setCheckpointOnClose(database, false)
            }
            csqlite_track_wal_frames(database.handle, walFrames)
            checkpointer = try WALCheckpointer(path: path)
        } catch {
            throw StoreError.chunk(path, error)
        }
    }

    deinit {
        checkpointer?.stop()
        csqlite_track_wal_frames(database.handle, nil)
        walFrames.deallocate()
    }

    /// Makes the last close of this connection checkpoint the WAL and remove it, as SQLite
    /// does by default: for a chunk sealed since (its WAL is empty), or a store closing.
    func checkpointOnClose() {
        try? Self.setCheckpointOnClose(database, true)
    }

    /// Copies the whole WAL into the file and empties it (waiting for readers within the busy
    /// timeout); a failure leaves it to the seal.
    func fold() {
        try? database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Frees what a closed chunk's connection no longer needs (its page cache, its checkpoint
    /// thread and that thread's connection): it is kept open only so that its WAL index stays
    /// valid for readers until the seal.
    func release() {
        checkpointer?.stop()
        checkpointer = nil
        try? database.execute("PRAGMA shrink_memory")
    }

    private static func setCheckpointOnClose(_ database: Database, _ on: Bool) throws {
        let code = csqlite_db_config_flag(database.handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on ? 0 : 1)
        guard code == SQLITE_OK else { throw SQLiteError(code: code, message: "cannot set SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE") }
    }

    /// The block sets' writer: the chunk's tables, or new ones when the chunk has no row yet. A
    /// chunk written before the record masks keeps its sets without them.
    private static func blockWriter(_ database: Database) throws -> MessageBlockWriter? {
        var tables = try ChunkTables(database)
        if !tables.hasMessageBlocks || !tables.hasRecordMasks,
           try database.scalarInt("SELECT count(*) FROM (SELECT 1 FROM records LIMIT 1)") == 0 {
            try database.execute(MessageBlocks.create)
            try database.execute(MessageBlocks.createMasks)
            tables = try ChunkTables(database)
        }
        guard tables.hasMessageBlocks else { return nil }
        return try MessageBlockWriter(database, masks: tables.hasRecordMasks)
    }

    /// Appends the records in one transaction; on return they are durable across a process crash.
    /// Returns the oldest and newest timestamps of the batch.
    func append(_ records: some Collection<LogRecord>) throws -> (oldest: Int64, newest: Int64)? {
        guard let first = records.first else { return nil }
        var oldest = first.timestamp
        var newest = first.timestamp
        do {
            try database.inTransaction(.immediate) {
                for record in records {
                    try RecordRow.bind(record, to: insert)
                    _ = try insert.step()
                    insert.reset()
                    if let blocks {
                        var message = record.eventMessage
                        try message.withUTF8 { try blocks.add(id: database.lastInsertRowID, timestamp: record.timestamp, message: $0) }
                    }
                    oldest = min(oldest, record.timestamp)
                    newest = max(newest, record.timestamp)
                }
                try blocks?.flush()
            }
        } catch {
            insert.reset()
            throw StoreError.chunk(path, error)
        }
        checkpointIfDue()
        return (oldest, newest)
    }

    /// Appends packed rows in one transaction, binding their bytes where they are (no copy:
    /// the batch outlives the statement's use of them, and the bindings are cleared after).
    func append(_ packed: PackedRecords) throws -> (oldest: Int64, newest: Int64)? {
        guard !packed.isEmpty else { return nil }
        var oldest = Int64.max
        var newest = Int64.min
        defer { insert.clearBindings() }
        do {
            try database.inTransaction(.immediate) {
                try packed.forEachRow { row in
                    var message = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
                    let timestamp = try RecordRow.bind(&row, to: insert, message: &message)
                    _ = try insert.step()
                    insert.reset()
                    try blocks?.add(id: database.lastInsertRowID, timestamp: timestamp, message: message)
                    oldest = min(oldest, timestamp)
                    newest = max(newest, timestamp)
                }
                try blocks?.flush()
            }
        } catch {
            insert.reset()
            throw StoreError.chunk(path, error)
        }
        checkpointIfDue()
        return (oldest, newest)
    }

    /// After a commit: every `checkpointFrames` frames written to the WAL, the checkpoint thread
    /// copies the WAL into the file (the WAL starts again from its beginning at a later commit).
    /// When it has not finished the one before (starved, or failing), or when the WAL has not
    /// started again after several of its checkpoints, this connection checkpoints, as SQLite's
    /// own automatic checkpoint would have: the WAL stays bounded.
    /// Like that automatic checkpoint, a failure here is not the commit's (it is durable): the
    /// next one tries again, and closing or sealing the chunk checkpoints it whole.
    ///
    /// Counted in frames, not in pages the file grew by (as it was until 2026-12-04): a chunk
    /// written a record a commit writes the same few pages again each time (1,298 frames for
    /// 400 such commits, `WALFoldTests`), so at some 300 bytes a record its file grew by 8,192
    /// pages only after some 110,000 commits, with some 350,000 frames (1.4 GB) in its WAL.
    private func checkpointIfDue() {
        let frames = Int64(walFrames.pointee)
        // Fewer frames than at the last request: the WAL started again from its beginning.
        if frames < framesAtLastCheckpoint { framesAtLastCheckpoint = 0 }
        guard let checkpointer, frames - framesAtLastCheckpoint >= checkpointFrames else { return }
        framesAtLastCheckpoint = frames
        if frames < Self.threadCheckpointsBeforeOwn * checkpointFrames, checkpointer.request() { return }
        // The thread is behind, or its checkpoints did not let the WAL start again (each copies
        // the frames committed when it began, and a commit came before it ended: a slow sync).
        // This connection checkpoints between two of its own commits, once the thread's
        // checkpoint under way has ended (until then the lock is the thread's, and a checkpoint
        // here would give up at once): every frame is copied, and the next commit starts the WAL
        // again.
        checkpointer.waitUntilIdle()
        try? database.execute("PRAGMA wal_checkpoint(PASSIVE)")
    }

    /// Checkpoints asked of the thread before this connection checkpoints itself (see
    /// `checkpointIfDue`): in a burst, a chunk is closed (and checkpointed whole) long before.
    static let threadCheckpointsBeforeOwn: Int64 = 4

    private func currentPageCount() throws -> Int64 {
        defer { pageCount.reset() }
        guard try pageCount.step() else { return 0 }
        return pageCount.int64(at: 0)
    }

    /// The size of the database in bytes, counting pages still in the WAL.
    func logicalSize() throws -> Int64 {
        defer { pageCount.reset() }
        guard try pageCount.step() else { return 0 }
        return pageCount.int64(at: 0) * pageSize
    }
}

@available(*, unavailable)
extension ChunkWriter: Sendable {}
