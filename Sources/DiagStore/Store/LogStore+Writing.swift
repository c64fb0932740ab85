import DiagModel
import Foundation

extension LogStore {
    /// Appends a batch in one transaction: when this returns, the records are durable across a
    /// crash of the process. The open chunk rotates after the batch that takes it past
    /// `chunkSizeLimit`, so keep batches to some thousands of records.
    public func append(_ records: some Collection<LogRecord>) throws {
        try appendBatch(records)
    }

    /// The same for an array: callers in other modules (diagd's writer) get a version
    /// specialised for arrays, without a generic call and a record copy per element.
    public func append(_ records: [LogRecord]) throws {
        try appendBatch(records)
    }

    /// Appends rows packed by diagd's connections (`PackedRecords`) in one transaction, bound
    /// straight from their bytes: the same rows and the same durability as `append(_:)`.
    public func append(packed: PackedRecords) throws {
        try appendBatch(count: packed.count, bytes: packed.bytes.count) { try $0.append(packed) }
    }

    private func appendBatch(_ records: some Collection<LogRecord>) throws {
        try appendBatch(count: records.count, bytes: nil) { try $0.append(records) }
    }

    /// `bytes`: the batch's packed size, which decides where a burst starts and ends
    /// (`Options.writesBurstsInLargePages`); nil for records not packed (never a burst's).
    private func appendBatch(count: Int, bytes: Int?, _ write: (ChunkWriter) throws -> (oldest: Int64, newest: Int64)?) throws {
        guard count > 0 else { return }
        let rotated: Bool = try lock.withLock {
            try requireWritable()
            if options.writesBurstsInLargePages, let bytes { noteBurstLocked(batchBytes: bytes) }
            // A burst that finds a chunk open in 4 KiB pages fills it first, and the chunks after
            // it are in 64 KiB pages while it lasts: closing that chunk at once left a small
            // chunk before each burst, 12 of 64 through diagd at 10M records.
            let (writer, file) = try openWriterLocked(burst: state.inBurst)
            guard let range = try write(writer) else { return false }
            // The batch is committed. A failure from here on must not be reported as a failed
            // append: the caller would send the batch again and it would be stored twice.
            // Info.json is a summary that the next save, or the next open, rebuilds from the
            // chunk files, and a rotation that fails is tried again after the next batch.
            let index = state.info.chunks.firstIndex { $0.file == file }!
            state.info.chunks[index].recordCount += Int64(count)
            state.info.chunks[index].oldestTimestamp = min(state.info.chunks[index].oldestTimestamp ?? range.oldest, range.oldest)
            state.info.chunks[index].newestTimestamp = max(state.info.chunks[index].newestTimestamp ?? range.newest, range.newest)
            let size = (try? writer.logicalSize()) ?? state.info.chunks[index].byteCount
            state.info.chunks[index].byteCount = size
            if size >= options.chunkSizeLimit || (writer.isBurst && !state.inBurst) {
                try? closeWriterLocked()
                return state.writer == nil
            }
            if ContinuousClock.now - state.lastInfoSave > .seconds(options.infoRefreshSeconds) {
                try? saveInfoLocked()
            }
            return false
        }
        if rotated && options.sealOnRotation { try sealPendingChunks() }
    }

    /// Closes the open chunk now (whatever its size); the next append opens a new one.
    public func rotate() throws {
        try lock.withLock {
            try requireWritable()
            try closeWriterLocked()
        }
        if options.sealOnRotation { try sealPendingChunks() }
    }

    /// The writer has had nothing to write for a while (diagd: a second without a record): a
    /// burst under way ends there, as 16 small batches would end it, and its open chunk, in
    /// 64 KiB pages, closes, so that the finisher seals it. Records that stop coming send no
    /// small batches: the repro's newest records stayed in an open chunk with no timestamp index
    /// until records came again, and a window of them scanned it (`Benchmarks/userpath.sh`
    /// through diagd at 1M, 2026-12-05: 39.1 ms, 23.3 ms once sealed). Returns whether a chunk
    /// closed. Nothing happens outside a burst: a chunk in 4 KiB pages stays open for the
    /// next records.
    @discardableResult
    public func endBurst() throws -> Bool {
        try lock.withLock {
            try requireWritable()
            burstEndedLocked()
            guard let writer = state.writer, writer.isBurst else { return false }
            try closeWriterLocked()
            return true
        }
    }

    /// Seals every closed chunk not sealed yet: builds its indexes, its statistics, and folds its
    /// WAL into the file. Safe to run on another thread than the appends.
    /// Returns the number of chunks sealed. `pace`: called before each chunk's seal (`lookNow`
    /// true) and every so often during it, and may sleep there (`ChunkSealer.seal`).
    @discardableResult
    public func sealPendingChunks(pace: ((_ lookNow: Bool) -> Void)? = nil) throws -> Int {
        var sealedCount = 0
        try forEachClaimedChunk(where: { state, chunk in !chunk.sealed && !chunk.mayBeAppendedTo(state) }) { chunk in
            let path = chunkPath(chunk.file)
            let burst = StoreLayout.isBurstChunk(path)
            // A burst's chunk is copied into `Persist/`: only the writer lock's holder does that,
            // so that another process's writer never takes its copy under way for a leftover.
            if burst { try lock.withLock { try takeWriterLockLocked() } }
            let sealed = burst
                ? try ChunkSealer.sealCopy(burstPath: path, sealedPath: sealedChunkPath(chunk.file), chunk: chunk, pace: pace)
                : try ChunkSealer.seal(path: path, chunk: chunk, pace: pace)
            // A reader kept a burst's WAL from being folded: the next pass seals it.
            guard let sealed else { return }
            try lock.withLock {
                // The seal folded the WAL: the connection kept for it may close, and remove it.
                if let writer = state.waitingFolds.removeValue(forKey: chunk.file) { writer.checkpointOnClose() }
                guard let index = state.info.chunks.firstIndex(where: { $0.file == chunk.file }) else { return }
                state.info.chunks[index] = sealed
                try saveInfoLocked()
            }
            // The copy is in place and listed: the burst's file goes (its connection closed above).
            if burst { try ChunkSealer.removeChunkFiles(path) }
            sealedCount += 1
        }
        return sealedCount
    }

    /// Claims the chunks `select` picks (at most `limit`, in the store's order) for a seal or a
    /// search index build on this thread: another thread's pass, and expiry, skip a claimed
    /// chunk. Runs `work` on each, and lets each claim go once its chunk is done, and all of
    /// them when `work` throws: a seal that failed (a full disk) kept the chunks after it
    /// claimed, so every later pass skipped them, and diagd left them unsealed and unindexed
    /// until it restarted.
    func forEachClaimedChunk(limit: Int = .max, where select: (State, ChunkInfo) -> Bool, _ work: (ChunkInfo) throws -> Void) throws {
        let claimed: [ChunkInfo] = try lock.withLock {
            try requireWritable()
            let chunks = Array(state.info.chunks.filter { select(state, $0) && !state.sealing.contains($0.file) }.prefix(max(0, limit)))
            state.sealing.formUnion(chunks.map(\.file))
            return chunks
        }
        defer { lock.withLock { state.sealing.subtract(claimed.map(\.file)) } }
        for chunk in claimed {
            defer { _ = lock.withLock { state.sealing.remove(chunk.file) } }
            try work(chunk)
        }
    }

    func requireWritable() throws {
        if options.readOnly { throw StoreError(.readOnly, path: url.path, reason: "the store was opened read-only") }
    }

    /// The open chunk's writer, opening one when there is none: the newest chunk again when it
    /// is still unsealed and below the size limit (after a restart), else a new chunk.
    /// `burst`: a new chunk, if one opens, is a burst's (`Options.writesBurstsInLargePages`).
    private func openWriterLocked(burst: Bool = false) throws -> (ChunkWriter, String) {
        if let writer = state.writer, let file = state.writerChunk { return (writer, file) }
        try takeWriterLockLocked()
        if let newest = state.info.chunks.last, !newest.sealed, newest.byteCount < options.chunkSizeLimit,
           !state.sealing.contains(newest.file), !state.closed.contains(newest.file)
        {
            let path = chunkPath(newest.file)
            let writer = try ChunkWriter(path: path, checkpointFrames: writerCheckpointFrames(burst: StoreLayout.isBurstChunk(path)),
                                         foldsAtSeal: options.foldsWALAtSeal)
            state.writer = writer
            state.writerChunk = newest.file
            return (writer, newest.file)
        }
        let sequence = (state.info.chunks.map(\.sequence).max() ?? 0) + 1
        let chunk = ChunkInfo(file: ChunkInfo.fileName(sequence: sequence), sequence: sequence)
        let path = burst ? burstChunkPath(chunk.file) : sealedChunkPath(chunk.file)
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw StoreError(.io, path: folder.path, reason: "cannot create the chunk folder: \(error.localizedDescription)")
        }
        let writer = try ChunkWriter(path: path, pageSize: burst ? StoreLayout.burstPageSize : nil,
                                     checkpointFrames: writerCheckpointFrames(burst: burst), foldsAtSeal: options.foldsWALAtSeal)
        state.info.chunks.append(chunk)
        state.writer = writer
        state.writerChunk = chunk.file
        try saveInfoLocked()
        return (writer, chunk.file)
    }

    private func closeWriterLocked() throws {
        if let writer = state.writer, let file = state.writerChunk {
            try refreshWriterSize(writer, file: file)
            state.closed.insert(file)
            if writer.foldsAtSeal { retireWriterLocked(writer, file: file) }
        }
        state.writer = nil
        state.writerChunk = nil
        try saveInfoLocked()
    }

    /// WAL frames between two checkpoints of the open chunk: SQLite's default, or with
    /// `foldsWALAtSeal` twice the chunk's size limit in 4 KiB pages (a burst fills a chunk with
    /// a frame or so per page; only a chunk written slowly gets there before its seal).
    /// A burst's chunk, in 64 KiB pages, counts in frames of that size.
    private func writerCheckpointFrames(burst: Bool) -> Int64 {
        guard options.foldsWALAtSeal else { return 8_192 }
        return burst ? max(512, 2 * options.chunkSizeLimit / Int64(StoreLayout.burstPageSize)) : max(8_192, 2 * options.chunkSizeLimit / 4_096)
    }

    /// Follows where a burst starts and ends (`Options.writesBurstsInLargePages`): a batch of
    /// `burstBatchBytes` or more starts one; `burstEndBatches` batches in a row under
    /// `burstEndBatchBytes` end it, so that a rate that wavers about the bounds (batches are what
    /// came in while the writer committed the one before) neither ends it at each dip nor
    /// decides each new chunk's pages by the one batch that opens it.
    private func noteBurstLocked(batchBytes bytes: Int) {
        if bytes >= Options.burstBatchBytes {
            state.inBurst = true
            state.smallBatchesInBurst = 0
        } else if bytes < Options.burstEndBatchBytes, state.inBurst {
            state.smallBatchesInBurst += 1
            if state.smallBatchesInBurst >= Options.burstEndBatches { burstEndedLocked() }
        } else {
            state.smallBatchesInBurst = 0
        }
    }

    /// A burst ends (small batches, or none: `endBurst`): the next chunk opens in 4 KiB pages,
    /// and the append after it closes a burst's chunk still open.
    private func burstEndedLocked() {
        state.inBurst = false
        state.smallBatchesInBurst = 0
    }

    /// Takes the writer lock if this value does not hold it yet, and then removes what a seal
    /// of a burst's chunk left when it was cut short (`removeSealLeftovers`): only the lock's
    /// holder seals, so nothing else is writing them.
    func takeWriterLockLocked() throws {
        guard state.writerLock == nil else { return }
        state.writerLock = try WriterLock(storeURL: url)
        removeSealLeftovers()
    }

    /// The most closed chunks whose connection waits for the seal to fold their WAL
    /// (`Options.foldsWALAtSeal`): each holds up to a chunk of WAL (64 MiB) and a connection.
    static let maximumWaitingFolds = 4

    /// Keeps a closed chunk's connection until its seal. Past `maximumWaitingFolds`, the oldest
    /// is folded (a checkpoint of its whole WAL) and closed on a thread of its own, never on
    /// the writer's: a finisher that falls behind (a long burst) leaves WALs no longer than
    /// before, and no more connections.
    private func retireWriterLocked(_ writer: ChunkWriter, file: String) {
        writer.release()
        state.waitingFolds[file] = writer
        guard state.waitingFolds.count > Self.maximumWaitingFolds,
              let oldest = state.waitingFolds.keys.min(by: { (StoreLayout.sequence(ofChunkFile: $0) ?? 0, $0) < (StoreLayout.sequence(ofChunkFile: $1) ?? 0, $1) }),
              let folding = state.waitingFolds.removeValue(forKey: oldest)
        else { return }
        folding.checkpointOnClose()
        let handed = Transferred(folding)
        let thread = Thread {
            ThreadName.setCurrent("diag-fold")
            // The copy, here; the close after it (wherever the last reference goes) finds an empty WAL.
            handed.value.fold()
        }
        thread.start()
    }

    func refreshWriterSize(_ writer: ChunkWriter, file: String) throws {
        guard let index = state.info.chunks.firstIndex(where: { $0.file == file }) else { return }
        state.info.chunks[index].byteCount = max(try writer.logicalSize(), ChunkSealer.diskSize(of: writer.path))
    }
}

extension ChunkInfo {
    /// True for this value's open chunk, and for the newest chunk unless this value closed it:
    /// another process (diagd, when this is `diag`) may be appending to it.
    func mayBeAppendedTo(_ state: LogStore.State) -> Bool {
        if file == state.writerChunk { return true }
        guard !state.closed.contains(file), let newest = state.info.chunks.max(by: { $0.sequence < $1.sequence }) else { return false }
        return newest.file == file
    }
}
