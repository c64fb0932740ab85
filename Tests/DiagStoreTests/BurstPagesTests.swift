import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

/// `LogStore.Options.burstPageSize` (diagd): chunks that a burst fills have pages of 64 KiB,
/// the others SQLite's 4 KiB; a mostly empty chunk of small pages that a burst reaches is
/// closed, and so is a chunk of burst pages once the burst is over. Records are stored and
/// read the same whatever their chunk's pages.
@Suite struct BurstPagesTests {
    static let burstPages = 65_536

    private func open(_ url: URL, burstEndSeconds: Double = 0) throws -> LogStore {
        try LogStore.open(at: url, create: true, options: .init(
            chunkSizeLimit: 64 << 20, sealOnRotation: false, foldsWALAtSeal: true,
            burstPageSize: Self.burstPages, burstEndSeconds: burstEndSeconds))
    }

    /// Records `first..<first + count` packed: at least `LogStore.burstBatchBytes` from 3,000 on.
    private func batch(_ first: Int, _ count: Int) -> PackedRecords {
        PackedRecords((first..<first + count).map { StoreTestRecords.full($0) })
    }

    private func pageSizes(_ store: LogStore) throws -> [Int] {
        try store.info.chunks.map { chunk in
            let database = try Database(path: store.chunkPath(chunk.file), options: .init(readOnly: true))
            return Int(try database.scalarInt("PRAGMA page_size") ?? 0)
        }
    }

    @Test func aBurstFillsChunksOfItsOwnPagesAndSmallBatchesAfterItGetSmallPagesAgain() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        let store = try open(url)
        let burst = batch(10, 4_000)
        #expect(burst.bytes.count >= LogStore.burstBatchBytes, "\(burst.bytes.count) bytes")

        // A trickle first: small pages.
        for index in 0..<10 { try store.append(packed: batch(index, 1)) }
        #expect(try pageSizes(store) == [4_096])
        // The burst closes that chunk (it holds little) and fills one of burst pages.
        try store.append(packed: burst)
        try store.append(packed: batch(4_010, 4_000))
        #expect(try pageSizes(store) == [4_096, Self.burstPages])
        // Small batches of the burst's own keep its chunk, up to `burstEndBatches` of them.
        for index in 0..<LogStore.burstEndBatches { try store.append(packed: batch(8_010 + index, 1)) }
        #expect(store.info.chunks.count == 2)
        // Past that (and past `burstEndSeconds`, 0 here), the next small batch opens small pages.
        try store.append(packed: batch(8_010 + LogStore.burstEndBatches, 1))
        try store.append(packed: batch(8_011 + LogStore.burstEndBatches, 1))
        #expect(try pageSizes(store) == [4_096, Self.burstPages, 4_096])

        let expected = (0..<10).map { StoreTestRecords.full($0) } + (10..<(8_012 + LogStore.burstEndBatches)).map { StoreTestRecords.full($0) }
        #expect(try store.records().all() == expected)
        #expect(try store.sealPendingChunks() == 2)
        #expect(try store.buildSearchIndexes() == 2)
        try store.close()
        let reader = try LogStore.openForReading(at: url)
        #expect(try reader.records().all() == expected)
        let needle = try reader.records(filter: StoreFilter(messageSearch: [MessageSearchIndex.fold(StoreTestRecords.full(5_000).eventMessage)])).all()
        #expect(needle.contains(StoreTestRecords.full(5_000)))
        for chunk in reader.info.chunks {
            let database = try Database(path: reader.chunkPath(chunk.file), options: .init(readOnly: true))
            #expect(try database.scalarText("PRAGMA integrity_check") == "ok", "\(chunk.file)")
        }
    }

    @Test func aBurstKeepsItsChunkWhileItsLargeBatchesComeWithinTheEndTime() throws {
        let folder = try TemporaryDirectory()
        let store = try open(folder.file("s.logarchive"), burstEndSeconds: 3_600)
        try store.append(packed: batch(0, 4_000))
        for index in 0..<(3 * LogStore.burstEndBatches) { try store.append(packed: batch(4_000 + index, 1)) }
        try store.append(packed: batch(10_000, 4_000))
        #expect(try pageSizes(store) == [Self.burstPages])
        try store.close()
    }

    @Test func withoutBurstsOrWithoutTheOptionEveryChunkHasSmallPages() throws {
        let folder = try TemporaryDirectory()
        // A trickle in a store with the option: no burst, no burst pages.
        let trickle = try open(folder.file("t.logarchive"))
        for index in 0..<50 { try trickle.append(packed: batch(index * 10, 10)) }
        #expect(try pageSizes(trickle) == [4_096])
        try trickle.close()
        // A burst in a store without it (diag import, tests): SQLite's pages.
        let plain = try LogStore.open(at: folder.file("p.logarchive"), create: true,
                                      options: .init(sealOnRotation: false, foldsWALAtSeal: true))
        try plain.append(packed: batch(0, 4_000))
        #expect(try pageSizes(plain) == [4_096])
        try plain.close()
    }

    /// The open chunk is checkpointed by the bytes of its WAL, not its frames: 8,192 frames of
    /// 64 KiB would be 512 MiB where 4 KiB pages made 32 MiB.
    @Test func theWALOfAChunkOfBurstPagesIsCheckpointedByItsBytes() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("c.sqlite").path
        var writer: ChunkWriter? = try ChunkWriter(path: path, checkpointBytes: 1 << 20, pageSize: Self.burstPages)
        #expect(writer?.pageSize == Int64(Self.burstPages))
        #expect(writer?.checkpointFrames == 16)
        let small = try ChunkWriter(path: folder.file("d.sqlite").path, checkpointBytes: 1 << 20)
        #expect(small.pageSize == 4_096)
        #expect(small.checkpointFrames == 256)
        // A record a commit, 10 ms apart (a megabyte's checkpoint, with its fsyncs, outlasts the
        // millisecond of WALCheckpointerTests, and a commit in the middle of it keeps the WAL
        // from starting again), in pages of 64 KiB: the WAL stays near its bound. Counted as
        // 256 frames (1 MiB of 4 KiB pages), it reached 16 MiB; with no checkpoint, it grows
        // by some 200 KB a commit.
        var largest: Int64 = 0
        for index in 0..<200 {
            _ = try writer?.append(batch(index, 1))
            largest = max(largest, StoreTestFiles.size(path + "-wal"))
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(largest < 6 << 20, "the WAL reached \(largest) bytes")
        writer = nil
        let database = try Database.openForReading(path: path)
        #expect(try database.scalarInt("SELECT count(*) FROM records") == 200)
    }
}
