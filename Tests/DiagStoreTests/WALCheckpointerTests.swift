import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

/// The open chunk's checkpoints run on a thread of their own: the writer's connection no longer
/// checkpoints, yet the WAL is copied into the chunk file as it grows, and every row commits;
/// the WAL stays bounded however small the commits.
@Suite struct WALCheckpointerTests {
    @Test func theWALIsCopiedIntoTheChunkFileWhileTheWriterAppends() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("chunk.sqlite").path
        var writer: ChunkWriter? = try ChunkWriter(path: path, checkpointFrames: 8)
        let emptySize = StoreTestFiles.size(path)
        var appended = 0
        for batch in 0..<40 {
            let records = (0..<50).map { StoreTestRecords.full(batch * 50 + $0) }
            _ = try writer!.append(PackedRecords(records))
            appended += records.count
        }
        // The writer's own connection has automatic checkpoints off: only the thread's (or the
        // fallback's, when the thread is behind) can have grown the chunk file.
        let reader = try Database(path: path, options: .init(readOnly: true))
        #expect(try reader.scalarInt("SELECT count(*) FROM records") == Int64(appended))
        #expect(StoreTestFiles.waitFor { StoreTestFiles.size(path) > emptySize + 8 * 4096 })
        writer = nil
        #expect(try reader.scalarText("PRAGMA integrity_check") == "ok")
        #expect(try reader.scalarInt("SELECT count(*) FROM records") == Int64(appended))
    }

    /// A record a commit rewrites the same pages: the WAL is checkpointed by the frames it
    /// holds, not by how far the file grew, whether or not the seal is to fold it. The commits come a millisecond apart,
    /// as a quiet system's do (far apart, that is): a checkpoint on the thread ends before the
    /// next commit, which starts the WAL again from its beginning. Under load (CI, 2026-12-05;
    /// by hand, with two `dd conv=fsync` loops and two busy loops) the thread's checkpoint, slowed
    /// by its sync, ended after the next commit every time: the WAL never started again (631 to
    /// 1,298 frames, every commit's). The writer now checkpoints itself between two commits once
    /// the WAL holds four requests' frames.
    @Test(arguments: [false, true])
    func aChunkWrittenARecordACommitKeepsItsWALBounded(foldsAtSeal: Bool) throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("chunk.sqlite").path
        var writer: ChunkWriter? = try ChunkWriter(path: path, checkpointFrames: 16, foldsAtSeal: foldsAtSeal)
        var largest: Int64 = 0
        for index in 0..<400 {
            _ = try writer!.append(PackedRecords([StoreTestRecords.full(index)]))
            largest = max(largest, StoreTestFiles.size(path + "-wal"))
            Thread.sleep(forTimeInterval: 0.001)
        }
        // Counted by the file's growth, 16 pages took some 200 commits of about 3 frames each:
        // a WAL of some 600 frames. By frames, a few times 16.
        #expect(largest < 200 * (4_096 + 24), "the WAL reached \(largest / (4_096 + 24)) frames")
        writer = nil
        let database = try Database.openForReading(path: path)
        #expect(try database.scalarInt("SELECT count(*) FROM records") == 400)
    }
}
