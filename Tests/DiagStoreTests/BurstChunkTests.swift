import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

/// `LogStore.Options.writesBurstsInLargePages` (diagd): a chunk opened for a batch of 1 MiB or
/// more is written in 64 KiB pages under `Persist/Burst/`, closes after the first batch under
/// 64 KiB, and its seal copies it into 4 KiB pages under `Persist/`, with the same ids, before
/// removing it. Reads planned before the seal, and connections opened before it, find every
/// record; a seal cut short at any step leaves nothing read twice and nothing lost.
@Suite struct BurstChunkTests {
    static let options = LogStore.Options(chunkSizeLimit: 16 << 20, sealOnRotation: false, foldsWALAtSeal: true,
                                          writesBurstsInLargePages: true)

    /// Records `range` packed, as diagd's connections hand them to its writer.
    static func batch(_ range: Range<Int>) -> PackedRecords {
        PackedRecords(range.map { StoreTestRecords.full($0) })
    }

    /// A burst's batch (over 1 MiB), then the small batches that end the burst: the burst's
    /// chunk is closed and waits for its seal. Returns the records written.
    static func writeBurst(_ store: LogStore, from first: Int = 0) throws -> Range<Int> {
        var count = 2_000
        while Self.batch(first..<(first + count)).bytes.count < LogStore.Options.burstBatchBytes { count *= 2 }
        try store.append(packed: batch(first..<(first + count)))
        var end = first + count
        for _ in 0..<LogStore.Options.burstEndBatches {
            try store.append(packed: batch(end..<(end + 2)))
            end += 2
        }
        return first..<end
    }

    /// Fewer small batches than end a burst, or small ones between large ones, leave its chunk open.
    /// A new store whose first batch (over 1 MiB) started a burst; returns the records written.
    static func storeInABurst(_ folder: TemporaryDirectory) throws -> (url: URL, store: LogStore, count: Int) {
        let url = folder.file("s.logarchive")
        let store = try LogStore.open(at: url, create: true, options: Self.options)
        var count = 2_000
        while Self.batch(0..<count).bytes.count < LogStore.Options.burstBatchBytes { count *= 2 }
        try store.append(packed: Self.batch(0..<count))
        return (url, store, count)
    }

    @Test func aFewSmallBatchesDoNotEndABurst() throws {
        let folder = try TemporaryDirectory()
        let (url, store, count) = try Self.storeInABurst(folder)
        #expect(Self.batch(0..<400).bytes.count >= LogStore.Options.burstEndBatchBytes)
        var end = count
        for round in 0..<3 {
            for _ in 0..<(LogStore.Options.burstEndBatches - 1) {
                try store.append(packed: Self.batch(end..<(end + 2)))
                end += 2
            }
            guard round < 2 else { break }
            // A batch of 64 KiB or more between them: the count of small ones starts again.
            try store.append(packed: Self.batch(end..<(end + 400)))
            end += 400
        }
        #expect(store.info.chunks.count == 1)
        #expect(store.lock.withLock { store.state.writer?.isBurst } == true)
        #expect(store.lock.withLock { store.state.smallBatchesInBurst } == LogStore.Options.burstEndBatches - 1)
        // The 16th small batch in a row ends it.
        try store.append(packed: Self.batch(end..<(end + 2)))
        end += 2
        #expect(store.lock.withLock { store.state.writer } == nil)
        #expect(store.lock.withLock { store.state.inBurst } == false)
        try store.append(packed: Self.batch(end..<(end + 1)))
        #expect(store.info.chunks.count == 2)
        #expect(try pageSize(store.chunkPath(store.info.chunks[1].file)) == 4_096)
        #expect(try all(url).count == end + 1)
        try store.close()
    }

    /// Records that stop coming end a burst (`endBurst`, diagd's idle writer): its chunk closes
    /// and is sealed, with no small batch after it; outside a burst the open chunk stays open.
    @Test func anIdleWriterEndsABurstAndItsChunkIsSealed() throws {
        let folder = try TemporaryDirectory()
        let (url, store, count) = try Self.storeInABurst(folder)
        #expect(store.lock.withLock { store.state.writer?.isBurst } == true)
        #expect(store.closedChunksAwaitingSearchIndex == 0)

        #expect(try store.endBurst())
        #expect(store.lock.withLock { store.state.writer } == nil)
        #expect(store.lock.withLock { store.state.inBurst } == false)
        #expect(store.closedChunksAwaitingSearchIndex == 1)
        #expect(try store.sealPendingChunks() == 1)
        let sealed = try #require(store.info.chunks.first)
        #expect(sealed.sealed)
        #expect(store.chunkPath(sealed.file) == store.sealedChunkPath(sealed.file))
        #expect(try pageSize(store.chunkPath(sealed.file)) == 4_096)

        // The records after it go to a chunk in 4 KiB pages, which an idle writer leaves open.
        try store.append(packed: Self.batch(count..<(count + 2)))
        #expect(store.info.chunks.count == 2)
        #expect(try pageSize(store.chunkPath(store.info.chunks[1].file)) == 4_096)
        #expect(try store.endBurst() == false)
        #expect(store.lock.withLock { store.state.writer } != nil)
        #expect(try all(url).count == count + 2)
        try store.close()
    }

    /// A store holding one burst's chunk, closed and waiting for its seal.
    struct OneBurst {
        let folder: TemporaryDirectory
        let url: URL
        let store: LogStore
        let written: Range<Int>
        let chunk: ChunkInfo

        init() throws {
            folder = try TemporaryDirectory()
            url = folder.file("s.logarchive")
            store = try LogStore.open(at: url, create: true, options: BurstChunkTests.options)
            written = try BurstChunkTests.writeBurst(store)
            chunk = try #require(store.info.chunks.first)
        }
    }

    private func pageSize(_ path: String) throws -> Int64? {
        try Database(path: path, options: .init(readOnly: true)).scalarInt("PRAGMA page_size")
    }

    private func ids(_ path: String) throws -> [Int64] {
        let database = try Database(path: path, options: .init(readOnly: true))
        let statement = try database.prepare("SELECT id FROM records ORDER BY id")
        var ids: [Int64] = []
        while try statement.step() { ids.append(statement.int64(at: 0)) }
        return ids
    }

    private func all(_ url: URL) throws -> [LogRecord] {
        try LogStore.openForReading(at: url).records(filter: StoreFilter()).all()
    }

    @Test func aBurstIsWrittenInLargePagesAndItsSealCopiesItIntoSmallOnes() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        let store = try LogStore.open(at: url, create: true, options: Self.options)
        let written = try Self.writeBurst(store)
        let burst = try #require(store.info.chunks.first)
        let burstPath = StoreLayout.burstFolderURL(url).appendingPathComponent(burst.file).path
        let sealedPath = StoreLayout.chunkURL(url, file: burst.file).path
        #expect(store.chunkPath(burst.file) == burstPath)
        #expect(try pageSize(burstPath) == Int64(StoreLayout.burstPageSize))
        #expect(!FileManager.default.fileExists(atPath: sealedPath))
        #expect(burst.recordCount == Int64(written.count), "the small batch went into the burst's chunk, which then closed")
        // A trickle after the burst: a chunk in 4 KiB pages under Persist/.
        try store.append(packed: Self.batch(written.upperBound..<(written.upperBound + 5)))
        let trickle = try #require(store.info.chunks.last)
        #expect(trickle.file != burst.file)
        #expect(try pageSize(store.chunkPath(trickle.file)) == 4_096)
        #expect(store.chunkPath(trickle.file) == StoreLayout.chunkURL(url, file: trickle.file).path)

        let expected = (0..<(written.upperBound + 5)).map { StoreTestRecords.full($0) }
        let before = try all(url)
        #expect(before.count == expected.count)
        #expect(Set(before) == Set(expected))
        let idsBefore = try ids(burstPath)

        #expect(try store.sealPendingChunks() == 1)
        let sealed = try #require(store.info.chunks.first)
        #expect(sealed.sealed)
        #expect(sealed.recordCount == Int64(written.count))
        #expect(sealed.byteCount == StoreTestFiles.size(sealedPath))
        #expect(try pageSize(sealedPath) == 4_096)
        for file in [burstPath, burstPath + "-wal", burstPath + "-shm", sealedPath + StoreLayout.sealingSuffix, sealedPath + "-wal"] {
            #expect(!FileManager.default.fileExists(atPath: file), "\(file) left")
        }
        #expect(try ids(sealedPath) == idsBefore, "ids kept: the forwarder's cursors and the block sets name rows by id")
        let database = try Database(path: sealedPath, options: .init(readOnly: true))
        #expect(try database.scalarText("PRAGMA integrity_check") == "ok")
        #expect(try database.scalarText("PRAGMA journal_mode") == "wal")
        #expect(try ChunkTables(database).hasTimestampIndex)
        #expect(store.chunkPath(sealed.file) == sealedPath)
        #expect(try all(url) == before)
        // Its search index is built in place, as any sealed chunk's.
        #expect(try store.buildSearchIndexes() >= 1)
        #expect(try all(url) == before)
        let needle = "#777"
        let matches = before.filter { $0.eventMessage.contains(needle) }
        #expect(!matches.isEmpty)
        let found = try LogStore.openForReading(at: url).records(filter: StoreFilter(messageSearch: [needle])).all()
        #expect(Set(found.filter { $0.eventMessage.contains(needle) }) == Set(matches))
        try store.close()
    }

    /// A burst's batch finds a chunk open in 4 KiB pages, here and after a restart: it goes
    /// there, and the burst's next chunk is in 64 KiB pages; no small chunk is left before it.
    @Test func aBurstFillsTheChunkOpenInSmallPagesFirst() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        var options = Self.options
        options.chunkSizeLimit = 1 << 20
        var store = try LogStore.open(at: url, create: true, options: options)
        try store.append(packed: Self.batch(0..<5))
        try store.close()
        store = try LogStore.open(at: url, options: options)
        var count = 2_000
        while Self.batch(0..<count).bytes.count < LogStore.Options.burstBatchBytes { count *= 2 }
        // Each over the chunk's 1 MiB: the chunk closes after each.
        try store.append(packed: Self.batch(5..<(5 + count)))
        try store.append(packed: Self.batch((5 + count)..<(5 + 2 * count)))
        let written = 0..<(5 + 2 * count)
        let chunks = store.info.chunks
        #expect(chunks.count == 2)
        #expect(chunks[0].recordCount == Int64(5 + count), "the burst's first batch went into the chunk open in 4 KiB pages")
        #expect(try pageSize(store.chunkPath(chunks[0].file)) == 4_096)
        #expect(try pageSize(store.chunkPath(chunks[1].file)) == Int64(StoreLayout.burstPageSize))
        #expect(StoreLayout.sealedPath(ofBurst: store.chunkPath(chunks[1].file)) != nil)
        #expect(try store.sealPendingChunks() == 2)
        #expect(try all(url).count == written.upperBound)
        try store.close()
    }

    /// A read plans its chunks' paths first and opens each when its merge gets there; a
    /// connection may be opened just before the seal removes the burst's files.
    @Test func readsFromBeforeTheSealFindEveryRecord() throws {
        let burst = try OneBurst()
        let (url, store, written, chunk) = (burst.url, burst.store, burst.written, burst.chunk)
        let planned = store.chunkPath(chunk.file)
        #expect(StoreLayout.sealedPath(ofBurst: planned) != nil)
        // Opened and read before (its WAL index mapped), read again after: the seal folded the
        // WAL into the file first, so the file it holds has every row.
        let opened = try Database.openForReading(path: planned)
        #expect(try ChunkTables(opened).hasRecords)
        #expect(try store.sealPendingChunks() == 1)
        #expect(!FileManager.default.fileExists(atPath: planned))
        #expect(try opened.scalarInt("SELECT count(*) FROM records") == Int64(written.count))
        // Planned before, opened after: the cursor finds the sealed copy.
        let cursor = RecordCursor(chunks: [chunk], filter: StoreFilter(), pathOf: { _ in planned })
        let records = try cursor.all()
        #expect(records.count == written.count)
        #expect(Set(records) == Set(written.map { StoreTestRecords.full($0) }))
        #expect(StoreLayout.openableChunkPath(planned) == StoreLayout.chunkURL(url, file: chunk.file).path)
        try store.close()
    }

    /// A seal cut short after its copy was renamed into place (Info.json still says unsealed,
    /// the burst's file still there) and one cut short while copying (`.sealing` beside it).
    @Test func aSealCutShortLeavesNothingReadTwiceAndTheNextWriterTidiesUp() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        let store = try LogStore.open(at: url, create: true, options: Self.options)
        let first = try Self.writeBurst(store)
        let second = try Self.writeBurst(store, from: first.upperBound)
        let chunks = store.info.chunks
        #expect(chunks.count == 2)
        try store.close()
        let burst0 = StoreLayout.burstFolderURL(url).appendingPathComponent(chunks[0].file).path
        let burst1 = StoreLayout.burstFolderURL(url).appendingPathComponent(chunks[1].file).path
        let sealed0 = StoreLayout.chunkURL(url, file: chunks[0].file).path
        let sealed1 = StoreLayout.chunkURL(url, file: chunks[1].file).path
        // The first: copied and renamed, not listed as sealed, not removed.
        _ = try ChunkSealer.sealCopy(burstPath: burst0, sealedPath: sealed0, chunk: chunks[0])
        #expect(FileManager.default.fileExists(atPath: burst0))
        // The second: a copy under way.
        try Data(repeating: 7, count: 10_000).write(to: URL(fileURLWithPath: sealed1 + StoreLayout.sealingSuffix))
        try Data().write(to: URL(fileURLWithPath: sealed1 + StoreLayout.sealingSuffix + "-journal"))

        let expected = Set((0..<second.upperBound).map { StoreTestRecords.full($0) })
        let read = try all(url)
        #expect(read.count == expected.count, "the first chunk read once, from its sealed copy")
        #expect(Set(read) == expected)

        let writer = try LogStore.open(at: url, options: Self.options)
        // Into the newest chunk, the second burst's, reopened as after a restart; then closed.
        try writer.append(packed: Self.batch(second.upperBound..<(second.upperBound + 1)))
        try writer.rotate()
        #expect(!FileManager.default.fileExists(atPath: burst0), "the burst whose copy is in place is removed")
        #expect(!FileManager.default.fileExists(atPath: sealed1 + StoreLayout.sealingSuffix))
        #expect(!FileManager.default.fileExists(atPath: sealed1 + StoreLayout.sealingSuffix + "-journal"))
        #expect(FileManager.default.fileExists(atPath: burst1), "a burst whose copy was cut short stays the chunk")
        #expect(writer.info.chunks.first?.sealed == true, "measured from its copy")
        #expect(try writer.sealPendingChunks() == 1)
        #expect(!FileManager.default.fileExists(atPath: burst1))
        #expect(FileManager.default.fileExists(atPath: sealed1))
        let after = try all(url)
        #expect(after.count == expected.count + 1)
        #expect(Set(after) == expected.union([StoreTestRecords.full(second.upperBound)]))
        try writer.close()
    }

    /// A read under way in the burst's WAL (a `diag show` in a pager) keeps its fold from
    /// finishing: the seal leaves the chunk as it is, and the next pass after the read seals it.
    @Test func aReadUnderWayPutsOffTheSeal() throws {
        let burst = try OneBurst()
        let (url, store, written, chunk) = (burst.url, burst.store, burst.written, burst.chunk)
        let path = store.chunkPath(chunk.file)
        let reader = try Database(path: path, options: .init(readOnly: true, busyTimeoutMilliseconds: 100))
        let rows = try reader.prepare("SELECT id FROM records")
        #expect(try rows.step())
        #expect(try store.sealPendingChunks() == 0)
        #expect(store.info.chunks.first?.sealed == false)
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: StoreLayout.chunkURL(url, file: chunk.file).path + StoreLayout.sealingSuffix))
        var count: Int64 = 1
        while try rows.step() { count += 1 }
        #expect(count == Int64(written.count))
        rows.reset()
        #expect(try store.sealPendingChunks() == 1)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try all(url).count == written.count)
        try store.close()
    }

    /// `diag collect` copies a burst's chunk not sealed yet as it is, in 64 KiB pages; the
    /// bundle's chunk is written again in 4 KiB pages, as the seal would have.
    @Test func aBurstsChunkSnapshotBeforeItsSealIsIn4KiBPages() throws {
        let burst = try OneBurst()
        let (url, store, written) = (burst.url, burst.store, burst.written)
        let copyURL = burst.folder.file("copy.logarchive")
        let info = try LogStore.snapshot(of: url, to: copyURL) { _ in }
        try info.save(to: StoreLayout.infoURL(copyURL))
        let chunk = try #require(info.chunks.first)
        #expect(info.chunks.count == 1)
        let path = StoreLayout.chunkURL(copyURL, file: chunk.file).path
        #expect(try pageSize(path) == 4_096)
        #expect(try Database(path: path, options: .init(readOnly: true)).scalarText("PRAGMA integrity_check") == "ok")
        #expect(FileManager.default.fileExists(atPath: StoreLayout.burstFolderURL(url).appendingPathComponent(chunk.file).path))
        #expect(!FileManager.default.fileExists(atPath: StoreLayout.burstFolderURL(copyURL).path))
        let copied = try all(copyURL)
        #expect(copied.count == written.count)
        #expect(Set(copied) == Set(written.map { StoreTestRecords.full($0) }))
        try store.close()
    }

    @Test func expiryRemovesABurstsChunkWhereverItIs() throws {
        let one = try OneBurst()
        let (url, store, written, burst) = (one.url, one.store, one.written, one.chunk)
        try store.append(packed: Self.batch(written.upperBound..<(written.upperBound + 5)))
        let burstPath = store.chunkPath(burst.file)
        #expect(StoreLayout.sealedPath(ofBurst: burstPath) != nil)
        let result = try store.expire(maxTotalBytes: 1)
        #expect(result.removedChunks == [burst.file])
        for file in [burstPath, burstPath + "-wal", burstPath + "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: file), "\(file) left")
        }
        #expect(try all(url).count == 5)
        try store.close()
    }

    @Test func onlyAPathUnderBurstHasASealedPath() {
        #expect(StoreLayout.sealedPath(ofBurst: "/s/Persist/Burst/0000000000000001.chunk.sqlite") == "/s/Persist/0000000000000001.chunk.sqlite")
        #expect(StoreLayout.sealedPath(ofBurst: "/s/Persist/0000000000000001.chunk.sqlite") == nil)
        #expect(StoreLayout.sealedPath(ofBurst: "/s/Burst/x/0000000000000001.chunk.sqlite") == nil)
        // A file that is there is opened where it is.
        #expect(StoreLayout.openableChunkPath("/nonexistent/Persist/0000000000000001.chunk.sqlite") == "/nonexistent/Persist/0000000000000001.chunk.sqlite")
    }
}
