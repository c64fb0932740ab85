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

    /// The oldest chunk claimed by a seal (or a search index build) when the size quota runs:
    /// nothing newer goes in its place, which would keep older records and lose newer ones (as
    /// diagd's quota did under load); once the claim is let go, the oldest go first again.
    @Test func maxSizeWaitsForTheOldestChunkBeingSealedInsteadOfDroppingANewerOne() throws {
        let folder = try TemporaryDirectory()
        let store = try hourlyStore(folder)
        let files = store.info.chunks.map(\.file)
        var duringTheSeal: ExpiryResult?
        try store.forEachClaimedChunk(limit: 1, where: { _, chunk in chunk.file == files[0] }) { _ in
            duringTheSeal = try store.expire(maxTotalBytes: 0)
        }
        #expect(duringTheSeal?.removedChunks == [])
        #expect(store.info.chunks.map(\.file) == files)
        #expect(try store.count() == 250)
        // The second chunk claimed: the first, older, may go, and nothing after the second.
        var behindTheSeal: ExpiryResult?
        try store.forEachClaimedChunk(limit: 1, where: { _, chunk in chunk.file == files[1] }) { _ in
            behindTheSeal = try store.expire(maxTotalBytes: 0)
        }
        #expect(behindTheSeal?.removedChunks == [files[0]])
        let after = try store.expire(maxTotalBytes: 0)
        #expect(after.removedChunks == Array(files[1..<4]))
        #expect(store.info.chunks.map(\.file) == [files[4]])
        #expect(try store.count() == 50)
    }

    /// The snapshot `diag collect` takes, with its sealed chunks copied in as a caller that
    /// cannot stream them does, and the `Info.json` it returns completed with their counts.
    private func completeSnapshot(of store: LogStore, to copyURL: URL, window: StoreWindow = StoreWindow(),
                                  extra: [LogRecord] = []) throws -> (info: StoreInfo, sealed: [String]) {
        var sealed: [String] = []
        var info = try LogStore.snapshot(of: store.url, to: copyURL, window: window, extraRecords: extra) { chunk in
            guard case .sealed(let sealedChunk) = chunk else { return }
            try sealedChunk.copy(intoStore: copyURL)
            sealed.append(sealedChunk.file)
        }
        for index in info.chunks.indices where info.chunks[index].recordCount == 0 {
            let database = try Database(path: StoreLayout.chunkURL(copyURL, file: info.chunks[index].file).path)
            info.chunks[index].recordCount = try database.scalarInt("SELECT count(*) FROM records") ?? 0
        }
        info.recomputeTotals()
        try info.save(to: StoreLayout.infoURL(copyURL))
        return (info, sealed)
    }

    @Test func snapshotIsAConsistentReadableCopy() throws {
        let folder = try TemporaryDirectory()
        let store = try hourlyStore(folder)
        let copyURL = folder.file("copy.logarchive")
        let (info, _) = try completeSnapshot(of: store, to: copyURL)
        #expect(info.recordCount == 250)
        #expect(info.chunks.count == 5 && info.chunks.allSatisfy(\.sealed))
        let copy = try LogStore.open(at: copyURL, options: .readOnly)
        #expect(try copy.records().all() == store.records().all())
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: StoreLayout.chunkFolderURL(copyURL).path)
        #expect(leftovers.allSatisfy(StoreLayout.isChunkFile))
        for file in leftovers {
            let database = try Database(path: StoreLayout.chunkURL(copyURL, file: file).path, options: .init(readOnly: true))
            #expect(try database.scalarText("PRAGMA journal_mode") == "delete")
        }
    }

    @Test func aWindowedSnapshotHoldsTheWindowsRecordsAndTheExtraOnes() throws {
        let folder = try TemporaryDirectory()
        let store = try hourlyStore(folder)
        let copyURL = folder.file("window.logarchive")
        // From the middle of hour 1 to the middle of hour 3: hours 1 and 3 are trimmed, 2 is whole.
        let window = StoreWindow(start: StoreTestRecords.base + Self.hour + 25, end: StoreTestRecords.base + 3 * Self.hour + 25)
        let inMemory = [StoreTestRecords.full(7, timestamp: StoreTestRecords.base + 2 * Self.hour + 100),
                        StoreTestRecords.full(8, timestamp: StoreTestRecords.base + 4 * Self.hour + 100)]
        let (info, sealed) = try completeSnapshot(of: store, to: copyURL, window: window, extra: inMemory)
        let expected = try store.records().all().filter { $0.timestamp >= window.start! && $0.timestamp < window.end! }
        #expect(expected.count == 100)
        let copy = try LogStore.open(at: copyURL, options: .readOnly)
        let copied = try copy.records().all()
        #expect(copied.count == 101 && Set(copied) == Set(expected + [inMemory[0]]))
        #expect(info.recordCount == 101)
        // Chunks 0 and 4 hold nothing of the window; 1 and 3 reach outside it and are trimmed
        // copies: only chunk 2 may be handed over as it is.
        let files = store.info.chunks.map(\.file)
        #expect(Set(sealed).isSubset(of: [files[2]]))
        #expect(!info.chunks.map(\.file).contains(files[0]) && !info.chunks.map(\.file).contains(files[4]))
        #expect(info.chunks.map(\.sequence).last == store.info.chunks.map(\.sequence).max()! + 1)
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
