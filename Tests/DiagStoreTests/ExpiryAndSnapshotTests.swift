import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

@Suite struct ExpiryAndSnapshotTests {
    private static let hour: Int64 = 3_600_000_000_000

    /// Four sealed chunks an hour apart, then an open one.
    private func hourlyStore(_ folder: TemporaryDirectory) throws -> LogStore {
        let store = try LogStore.open(at: folder.file("s.logarchive"), create: true)
        for hour in 0..<5 {
            try store.append((0..<50).map { StoreTestRecords.full($0, timestamp: StoreTestRecords.base + Int64(hour) * Self.hour + Int64($0)) })
            if hour < 4 { try store.rotate() }
        }
        return store
    }

    @Test func maxAgeDropsWholeChunksOlderThanTheCutoff() throws {
        let folder = try TemporaryDirectory()
        let store = try hourlyStore(folder)
        let files = store.info.chunks.map(\.file)
        let now = StoreTestRecords.base + 4 * Self.hour
        let result = try store.expire(maxAge: 2 * Self.hour + Self.hour / 2, now: now)
        #expect(result.removedChunks == Array(files.prefix(2)))
        #expect(result.removedRecords == 100)
        #expect(store.info.chunks.map(\.file) == Array(files.dropFirst(2)))
        for file in files.prefix(2) {
            #expect(!FileManager.default.fileExists(atPath: store.chunkPath(file)))
        }
        #expect(try store.count() == 150)
        let saved = try JSONDecoder().decode(StoreInfo.self, from: Data(contentsOf: folder.file("s.logarchive/Info.json")))
        #expect(saved.recordCount == 150)
        #expect(saved.oldestTimestamp == StoreTestRecords.base + 2 * Self.hour)
    }

    @Test func maxSizeDropsOldestChunksFirstAndNeverTheOpenOne() throws {
        let folder = try TemporaryDirectory()
        let store = try hourlyStore(folder)
        let chunks = store.info.chunks
        let keepTwo = chunks.suffix(2).reduce(0) { $0 + $1.byteCount }
        let result = try store.expire(maxTotalBytes: keepTwo + 1)
        #expect(result.removedChunks.count >= 2)
        #expect(result.removedChunks == Array(chunks.map(\.file).prefix(result.removedChunks.count)))
        let everything = try store.expire(maxTotalBytes: 0)
        #expect(store.info.chunks.map(\.file) == [chunks.last!.file])
        #expect(!everything.removedChunks.contains(chunks.last!.file))
        #expect(try store.count() == 50)
        // Nothing to do: nothing removed.
        #expect(try store.expire(maxTotalBytes: 1 << 40, maxAge: 1_000 * Self.hour).removedChunks.isEmpty)
    }

    @Test func snapshotIsAConsistentReadableCopy() throws {
        let folder = try TemporaryDirectory()
        let store = try hourlyStore(folder)
        let copyURL = folder.file("copy.logarchive")
        let info = try store.snapshot(to: copyURL)
        #expect(info.recordCount == 250)
        let copy = try LogStore.open(at: copyURL, options: .readOnly)
        #expect(try copy.records().all() == store.records().all())
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: copyURL.appendingPathComponent("Persist").path)
        #expect(leftovers.allSatisfy { $0.hasSuffix(".chunk.sqlite") })
    }

    @Test func committedRecordsSurviveACrashOfTheWriter() throws {
        // What a kill -9 leaves is what is in the files: copy them while the writer is still open.
        let folder = try TemporaryDirectory()
        let store = try LogStore.open(at: folder.file("s.logarchive"), create: true, options: .init(infoRefreshSeconds: 3_600))
        try store.append((0..<100).map { StoreTestRecords.full($0) })
        try store.append((100..<130).map { StoreTestRecords.full($0) })
        let crashed = folder.file("crashed.logarchive")
        try FileManager.default.createDirectory(at: crashed.appendingPathComponent("Persist"), withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.file("s.logarchive/Persist").path) where !name.hasSuffix("-shm") {
            try FileManager.default.copyItem(at: folder.file("s.logarchive/Persist/\(name)"), to: crashed.appendingPathComponent("Persist/\(name)"))
        }
        try FileManager.default.copyItem(at: folder.file("s.logarchive/Info.json"), to: crashed.appendingPathComponent("Info.json"))
        let recovered = try LogStore.open(at: crashed)
        #expect(recovered.info.recordCount == 130)
        #expect(try recovered.records().all() == (0..<130).map { StoreTestRecords.full($0) })
        let database = try Database(path: recovered.chunkPath(recovered.info.chunks[0].file))
        #expect(try database.scalarText("PRAGMA integrity_check") == "ok")
    }
}
