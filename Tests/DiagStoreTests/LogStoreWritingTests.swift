import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

@Suite struct LogStoreWritingTests {
    @Test func everyFieldRoundTrips() throws {
        let folder = try TemporaryDirectory()
        let store = try LogStore.open(at: folder.file("s.logarchive"), create: true)
        let records = (0..<40).map { StoreTestRecords.full($0) } + [StoreTestRecords.minimal(0, timestamp: StoreTestRecords.base + 999_999)]
        try store.append(records)
        #expect(try store.records().all() == records)
        try store.close()
        let reopened = try LogStore.open(at: folder.file("s.logarchive"), options: .readOnly)
        #expect(try reopened.records().all() == records)
        #expect(reopened.info.recordCount == Int64(records.count))
        #expect(reopened.info.oldestTimestamp == StoreTestRecords.base)
    }

    @Test func missingStoreIsAnErrorNamingThePathUnlessCreating() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("absent.logarchive")
        let error = #expect(throws: StoreError.self) { try LogStore.open(at: url) }
        #expect(error?.kind == .notFound)
        #expect(error?.description.contains(url.path) == true)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        _ = try LogStore.open(at: url, create: true)
        #expect(FileManager.default.fileExists(atPath: url.appendingPathComponent("Info.json").path))
    }

    @Test func chunksRotateAtTheSizeBoundAndAreSealedWithTheirIndexes() throws {
        let folder = try TemporaryDirectory()
        let store = try LogStore.open(at: folder.file("s.logarchive"), create: true, options: .init(chunkSizeLimit: 64 << 10))
        var written: [LogRecord] = []
        for batch in 0..<30 {
            let records = (0..<50).map { StoreTestRecords.full(batch * 50 + $0) }
            try store.append(records)
            written += records
        }
        // One more so that an open chunk exists even if the last batch rotated.
        try store.append([StoreTestRecords.full(1_500)])
        written.append(StoreTestRecords.full(1_500))
        let info = store.info
        #expect(info.chunks.count > 2)
        #expect(info.recordCount == Int64(written.count))
        for chunk in info.chunks.dropLast() {
            #expect(chunk.sealed)
            #expect(chunk.byteCount >= 64 << 10)
            let database = try Database(path: store.chunkPath(chunk.file), options: .init(readOnly: true))
            let indexes = Set(try strings(database, "SELECT name FROM sqlite_master WHERE type = 'index'"))
            #expect(indexes.isSuperset(of: ChunkSchema.indexes.map(\.name)))
            #expect(try database.scalarText("PRAGMA integrity_check") == "ok")
            #expect(try database.userVersion() == ChunkSchema.version)
            #expect(try database.scalarText("PRAGMA journal_mode") == "wal")
        }
        let open = try Database(path: store.chunkPath(info.chunks.last!.file), options: .init(readOnly: true))
        #expect(try strings(open, "SELECT name FROM sqlite_master WHERE type = 'index'").isEmpty)
        #expect(try store.records().all() == written)
        let fileInfo = try JSONDecoder().decode(StoreInfo.self, from: Data(contentsOf: folder.file("s.logarchive/Info.json")))
        #expect(fileInfo.chunks.count == info.chunks.count)
    }

    @Test func deferredSealingLeavesClosedChunksForSealPendingChunks() throws {
        let folder = try TemporaryDirectory()
        let store = try LogStore.open(at: folder.file("s.logarchive"), create: true,
                                      options: .init(chunkSizeLimit: 32 << 10, sealOnRotation: false))
        for batch in 0..<10 { try store.append((0..<40).map { StoreTestRecords.full(batch * 40 + $0) }) }
        try store.append([StoreTestRecords.full(400)])
        let closed = store.info.chunks.dropLast()
        #expect(!closed.isEmpty)
        #expect(closed.allSatisfy { !$0.sealed })
        #expect(try store.sealPendingChunks() == closed.count)
        #expect(store.info.chunks.dropLast().allSatisfy { $0.sealed })
        #expect(try store.records().all().count == 401)
    }

    @Test func anExplicitRotationIsNotUndoneBeforeSealing() throws {
        let folder = try TemporaryDirectory()
        let store = try LogStore.open(at: folder.file("s.logarchive"), create: true, options: .init(sealOnRotation: false))
        try store.append([StoreTestRecords.full(0)])
        try store.rotate()
        try store.append([StoreTestRecords.full(1)])
        #expect(store.info.chunks.map(\.recordCount) == [1, 1])
        #expect(try store.sealPendingChunks() == 1)
        #expect(store.info.chunks.map(\.sealed) == [true, false])
    }

    @Test func aRestartedWriterContinuesTheOpenChunkAndRecountsIt() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        do {
            let store = try LogStore.open(at: url, create: true, options: .init(infoRefreshSeconds: 3600))
            try store.append((0..<10).map { StoreTestRecords.full($0) })
            try store.append((10..<20).map { StoreTestRecords.full($0) })
            // No close: Info.json is stale, as after kill -9.
        }
        let store = try LogStore.open(at: url)
        #expect(store.info.recordCount == 20)
        try store.append((20..<25).map { StoreTestRecords.full($0) })
        #expect(store.info.chunks.count == 1)
        #expect(try store.records().all() == (0..<25).map { StoreTestRecords.full($0) })
    }

    @Test func aBatchCommittedWhenInfoJSONCannotBeSavedIsNotReportedAsFailed() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        let store = try LogStore.open(at: url, create: true, options: .init(infoRefreshSeconds: 0))
        try store.append((0..<10).map { StoreTestRecords.full($0) })
        // Info.json cannot be replaced any more (a full disk does the same): a non-empty folder.
        let info = url.appendingPathComponent("Info.json")
        try FileManager.default.removeItem(at: info)
        try FileManager.default.createDirectory(at: info.appendingPathComponent("blocked"), withIntermediateDirectories: true)
        // Committed, so no error: a caller that retried would store the batch twice.
        try store.append((10..<20).map { StoreTestRecords.full($0) })
        #expect(try store.records().all() == (0..<20).map { StoreTestRecords.full($0) })
        try FileManager.default.removeItem(at: info)
        try store.append((20..<25).map { StoreTestRecords.full($0) })
        try store.close()
        let reopened = try LogStore.open(at: url)
        #expect(reopened.info.recordCount == 25)
        #expect(try reopened.records().all() == (0..<25).map { StoreTestRecords.full($0) })
    }

    @Test func readOnlyStoreRefusesAppends() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        _ = try LogStore.open(at: url, create: true)
        let store = try LogStore.open(at: url, options: .readOnly)
        let error = #expect(throws: StoreError.self) { try store.append([StoreTestRecords.full(0)]) }
        #expect(error?.kind == .readOnly)
    }
}

func strings(_ database: Database, _ sql: String) throws -> [String] {
    let statement = try database.prepare(sql)
    var values: [String] = []
    while try statement.step() { values.append(statement.string(at: 0)) }
    return values
}

@Suite struct WriterLockTests {
    @Test func aSecondAppenderIsRefusedUntilTheFirstCloses() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        let first = try LogStore.open(at: url, create: true)
        try first.append([StoreTestRecords.full(0)])
        let second = try LogStore.open(at: url)
        let error = #expect(throws: StoreError.self) { try second.append([StoreTestRecords.full(1)]) }
        #expect(error?.kind == .locked)
        #expect(error?.path == url.appendingPathComponent("writer.lock").path)
        // Readers are never refused.
        #expect(try second.records().all().count == 1)
        try first.close()
        try second.append([StoreTestRecords.full(1)])
        #expect(try second.count() == 2)
    }
}

@Suite struct SecondProcessTests {
    @Test func aValueThatDoesNotAppendNeverSealsOrExpiresTheNewestChunk() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        let writer = try LogStore.open(at: url, create: true, options: .init(sealOnRotation: false))
        try writer.append([StoreTestRecords.full(0, timestamp: 1)])
        try writer.rotate()
        try writer.append([StoreTestRecords.full(1, timestamp: 2)])
        // `diag` beside a running diagd: it may seal the closed chunk, never diagd's open one.
        let other = try LogStore.open(at: url)
        #expect(try other.sealPendingChunks() == 1)
        #expect(other.info.chunks.map(\.sealed) == [true, false])
        let expired = try other.expire(maxTotalBytes: 0, maxAge: 0, now: 1_000)
        #expect(expired.removedChunks == ["0000000000000001.chunk.sqlite"])
        #expect(try writer.records().all().map(\.timestamp) == [2])
        try writer.append([StoreTestRecords.full(2, timestamp: 3)])
        #expect(try writer.count() == 2)
    }
}
