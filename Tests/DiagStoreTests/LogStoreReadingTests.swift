import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

@Suite struct LogStoreReadingTests {
    /// Three chunks whose time ranges interleave: batches written out of time order.
    private func overlappingStore(_ folder: TemporaryDirectory) throws -> (LogStore, [LogRecord]) {
        let store = try LogStore.open(at: folder.file("s.logarchive"), create: true)
        var all: [LogRecord] = []
        for chunk in 0..<3 {
            let records = (0..<100).map { index in
                var record = StoreTestRecords.full(chunk * 100 + index, timestamp: StoreTestRecords.base + Int64(index * 3 + chunk) * 1_000)
                record.process = ["syncd", "schedulerd", "transportd"][index % 3]
                return record
            }
            try store.append(records.reversed())
            try store.rotate()
            all += records
        }
        // An unsealed chunk overlapping everything, and equal timestamps across chunks.
        let open = (0..<20).map { StoreTestRecords.full(900 + $0, timestamp: StoreTestRecords.base + Int64($0 * 15) * 1_000) }
        try store.append(open)
        all += open
        return (store, all)
    }

    /// The expected order: time, then chunk (write order), then insertion order within the chunk.
    private func sortedByTime(_ records: [LogRecord]) -> [LogRecord] {
        records.enumerated().sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }.map(\.element)
    }

    @Test func recordsComeInTimestampOrderAcrossOverlappingChunks() throws {
        let folder = try TemporaryDirectory()
        let (store, all) = try overlappingStore(folder)
        #expect(store.info.chunks.count == 4)
        let read = try store.records().all()
        #expect(read.count == all.count)
        #expect(read.map(\.timestamp) == all.map(\.timestamp).sorted())
        #expect(Set(read) == Set(all))
        // Equal timestamps: the earlier chunk first.
        let ties = read.filter { $0.timestamp == StoreTestRecords.base }
        #expect(ties.count == 2)
        #expect(ties.first?.eventMessage.hasSuffix("#0") == true)
        #expect(ties.last?.eventMessage.hasSuffix("#900") == true)
    }

    @Test func timeWindowIsStartInclusiveEndExclusive() throws {
        let folder = try TemporaryDirectory()
        let (store, all) = try overlappingStore(folder)
        let start = StoreTestRecords.base + 30_000
        let end = StoreTestRecords.base + 90_000
        let filter = StoreFilter(start: start, end: end)
        let expected = all.filter { $0.timestamp >= start && $0.timestamp < end }.map(\.timestamp).sorted()
        #expect(try store.records(filter: filter).all().map(\.timestamp) == expected)
        #expect(try store.count(filter: filter) == Int64(expected.count))
        #expect(try store.records(filter: StoreFilter(start: StoreTestRecords.base + 10_000_000)).all().isEmpty)
    }

    @Test func whereSQLWithBindingsFiltersInEveryChunk() throws {
        let folder = try TemporaryDirectory()
        let (store, all) = try overlappingStore(folder)
        let filter = StoreFilter(whereSQL: "process = ? OR messageType = ?", bindings: [.text("transportd"), .int(17)])
        let expected = all.filter { $0.process == "transportd" || $0.messageType == .fault }
        let read = try store.records(filter: filter).all()
        #expect(read.map(\.timestamp) == expected.map(\.timestamp).sorted())
        #expect(Set(read) == Set(expected))
        // The OR is parenthesised, so the time window still applies.
        let windowed = StoreFilter(start: StoreTestRecords.base + 100_000, whereSQL: filter.whereSQL, bindings: filter.bindings)
        #expect(try store.records(filter: windowed).all().allSatisfy { $0.timestamp >= StoreTestRecords.base + 100_000 })
        // A bound value is data, never SQL.
        let hostile = StoreFilter(whereSQL: "process = ?", bindings: [.text("x' OR 1=1 --")])
        #expect(try store.records(filter: hostile).all().isEmpty)
        // A second statement smuggled into the SQL is refused, not run.
        let smuggled = StoreFilter(whereSQL: "1) ORDER BY id; DROP TABLE records; SELECT (1")
        #expect(throws: StoreError.self) { try store.records(filter: smuggled).all() }
        #expect(try store.count() == Int64(all.count))
    }

    @Test func limitTakesTheEarliestRecords() throws {
        let folder = try TemporaryDirectory()
        let (store, all) = try overlappingStore(folder)
        let read = try store.records(filter: StoreFilter(limit: 7)).all()
        #expect(read.map(\.timestamp) == Array(all.map(\.timestamp).sorted().prefix(7)))
        #expect(try store.records(filter: StoreFilter(limit: 0)).all().isEmpty)
    }

    @Test func badWhereSQLIsAnErrorNamingTheChunk() throws {
        let folder = try TemporaryDirectory()
        let (store, _) = try overlappingStore(folder)
        let error = #expect(throws: StoreError.self) {
            _ = try store.records(filter: StoreFilter(whereSQL: "nosuchcolumn = ?", bindings: [.int(1)])).all()
        }
        #expect(error?.description.contains(".chunk.sqlite") == true)
        #expect(error?.description.contains("no such column: nosuchcolumn") == true)
    }

    @Test func groupedCountsSumAcrossChunks() throws {
        let folder = try TemporaryDirectory()
        let (store, all) = try overlappingStore(folder)
        let byProcess = try store.groupedCounts(by: .process)
        for group in byProcess {
            guard case .text(let name) = group.key else { Issue.record("unexpected key \(group.key)"); continue }
            let members = all.filter { $0.process == name }
            #expect(group.count == Int64(members.count))
            #expect(group.messageBytes == Int64(members.reduce(0) { $0 + $1.eventMessage.utf8.count }))
        }
        #expect(byProcess.reduce(0) { $0 + $1.count } == Int64(all.count))
        let byLevel = try store.groupedCounts(by: .messageType, filter: StoreFilter(whereSQL: "process = ?", bindings: [.text("syncd")]))
        #expect(byLevel.reduce(0) { $0 + $1.count } == Int64(all.filter { $0.process == "syncd" }.count))
        let byMinute = try store.groupedCounts(by: .minute)
        let minute: Int64 = 60_000_000_000
        #expect(byMinute.map(\.key) == [.int(StoreTestRecords.base / minute * minute)])
    }
}

/// A read leaves out a closed chunk not sealed yet when its final range misses the window, as
/// it does a sealed one (`LogStore.chunksToRead`), and reads every chunk whose listed range may
/// not be final.
@Suite struct UnsealedChunkRangeTests {
    private static func at(_ second: Int) -> Int64 { StoreTestRecords.base + Int64(second) * 1_000_000_000 }

    /// Chunk 1 holds seconds 0–9, chunk 2 seconds 100–109, both closed and not sealed; chunk 3,
    /// the open one, seconds 200–209.
    private func store(_ url: URL, infoRefreshSeconds: Double = 1) throws -> LogStore {
        let store = try LogStore.open(at: url, create: true, options: .init(sealOnRotation: false, infoRefreshSeconds: infoRefreshSeconds))
        for (index, first) in [0, 100, 200].enumerated() {
            if index > 0 { try store.rotate() }
            try store.append((0..<10).map { StoreTestRecords.full(first + $0, timestamp: Self.at(first + $0)) })
        }
        #expect(store.info.chunks.map(\.sealed) == [false, false, false])
        return store
    }

    private func window(_ from: Int, _ to: Int) -> StoreFilter { StoreFilter(start: Self.at(from), end: Self.at(to)) }

    @Test func aClosedUnsealedChunkOutsideTheWindowIsNotOpened() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        let writer = try store(url)
        // Chunk 1's file damaged: a read that opened it would fail, naming it.
        let first = StoreLayout.chunkURL(url, file: writer.info.chunks[0].file)
        try Data(repeating: 0x41, count: 8192).write(to: first)
        let reader = try LogStore.openForReading(at: url)
        #expect(try reader.records(filter: window(100, 210)).all().map(\.timestamp) == (100..<110).map(Self.at) + (200..<210).map(Self.at))
        #expect(try reader.count(filter: window(100, 110)) == 10)
        #expect(throws: StoreError.self) { try reader.records(filter: window(0, 50)).all() }
    }

    @Test func theNewestChunkIsReadWhateverRangeInfoJSONGivesIt() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        let writer = try store(url, infoRefreshSeconds: 0)
        // Appended after Info.json was last saved, as diagd appends between its saves: the
        // listed range of the open chunk (seconds 200–209) does not hold second 50.
        let infoURL = StoreLayout.infoURL(url)
        let saved = try Data(contentsOf: infoURL)
        try writer.append([StoreTestRecords.full(50, timestamp: Self.at(50))])
        try saved.write(to: infoURL)
        let reader = try LogStore.openForReading(at: url)
        #expect(reader.info.chunks[2].oldestTimestamp == Self.at(200))
        #expect(try reader.records(filter: window(40, 60)).all().map(\.timestamp) == [Self.at(50)])
    }

    @Test func theOpenChunkIsReadPastItsListedRecordsWhenItsListedRangeMissesTheWindow() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        let writer = try LogStore.open(at: url, create: true, options: .init(sealOnRotation: false, infoRefreshSeconds: 0))
        // 100 records listed (ids 1–100, seconds 200–299: two blocks of ids), then 100 more after
        // the last save of Info.json, every third one inside the window, the others after it.
        try writer.append((0..<100).map { StoreTestRecords.full($0, timestamp: Self.at(200 + $0)) })
        let infoURL = StoreLayout.infoURL(url)
        let saved = try Data(contentsOf: infoURL)
        let late = (0..<100).map { index in
            StoreTestRecords.full(100 + index, timestamp: index % 3 == 0 ? Self.at(40) + Int64(index) : Self.at(1_000 + index))
        }
        for batch in stride(from: 0, to: 100, by: 25) { try writer.append(Array(late[batch..<batch + 25])) }
        try saved.write(to: infoURL)
        let reader = try LogStore.openForReading(at: url)
        #expect(reader.info.chunks.map(\.recordCount) == [100])
        let expected = late.filter { $0.timestamp < Self.at(60) }
        #expect(try reader.records(filter: window(30, 60)).all() == expected)
        #expect(try reader.records(filter: window(30, 60)).all().count == 34)
        #expect(try reader.count(filter: window(30, 60)) == 34)
        #expect(try reader.groupedCounts(by: .process, filter: window(30, 60)).reduce(0) { $0 + $1.count } == 34)
        // A window that meets the listed range reads the chunk whole.
        #expect(try reader.records(filter: window(250, 260)).all().map(\.timestamp) == (250..<260).map(Self.at))
    }

    /// The open chunk, listed outside the window, is left out of the read's plan when none of
    /// the records written since it was listed are in the window (`LogStore.holdsRecords`), and
    /// kept when one is, or when the look at it fails (the read then reports the error).
    @Test func theOpenChunkIsLeftOutWhenNothingWrittenSinceItWasListedIsInTheWindow() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        let writer = try store(url, infoRefreshSeconds: 0)
        let open = writer.info.chunks[2].file
        var reader = try LogStore.openForReading(at: url)
        #expect(reader.chunksToRead(window(100, 110)).map(\.file) == [writer.info.chunks[1].file])
        #expect(reader.chunksToRead(window(205, 300)).map(\.file) == [open])
        #expect(try reader.records(filter: window(100, 110)).all().map(\.timestamp) == (100..<110).map(Self.at))
        // Written after Info.json was last saved: one record after the window, then one in it.
        let infoURL = StoreLayout.infoURL(url)
        let saved = try Data(contentsOf: infoURL)
        try writer.append([StoreTestRecords.full(300, timestamp: Self.at(300))])
        try saved.write(to: infoURL)
        reader = try LogStore.openForReading(at: url)
        #expect(reader.chunksToRead(window(100, 110)).map(\.file) == [writer.info.chunks[1].file])
        #expect(reader.chunksToRead(window(290, 310)).map(\.file) == [open])
        try writer.append([StoreTestRecords.full(105, timestamp: Self.at(105) + 1)])
        try saved.write(to: infoURL)
        reader = try LogStore.openForReading(at: url)
        #expect(reader.chunksToRead(window(100, 110)).map(\.file) == [writer.info.chunks[1].file, open])
        #expect(try reader.records(filter: window(105, 106)).all().map(\.timestamp) == [Self.at(105), Self.at(105) + 1])
        #expect(try reader.count(filter: window(105, 106)) == 2)
        // The open chunk's file damaged: the look fails, the chunk stays in the plan, and the
        // read names it.
        let openURL = StoreLayout.chunkURL(url, file: open)
        try Data(repeating: 0x41, count: 8192).write(to: openURL)
        try? FileManager.default.removeItem(atPath: openURL.path + "-wal")
        try? FileManager.default.removeItem(atPath: openURL.path + "-shm")
        reader = try LogStore.openForReading(at: url)
        #expect(reader.chunksToRead(window(0, 5)).map(\.file) == [writer.info.chunks[0].file, open])
        #expect(throws: StoreError.self) { try reader.records(filter: window(0, 5)).all() }
    }

    @Test func aCountTooLargeInInfoJSONReadsNothingOfTheChunkOutsideItsRange() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        _ = try store(url)
        try StoreTestFiles.editChunks(url) { $0[2]["recordCount"] = Int64.max }
        let reader = try LogStore.openForReading(at: url)
        #expect(try reader.records(filter: window(150, 190)).all().isEmpty)
        #expect(try reader.records(filter: window(200, 210)).all().map(\.timestamp) == (200..<210).map(Self.at))
    }

    @Test func aChunkIsNarrowedToItsUnlistedRecordsOnlyWhenNotSealedAndListedOutsideTheWindow() {
        let chunk = ChunkInfo(file: "3.chunk.sqlite", sequence: 3, recordCount: 10, oldestTimestamp: Self.at(200), newestTimestamp: Self.at(209))
        #expect(window(40, 60).narrowed(for: chunk).afterID == 10)
        #expect(window(300, 400).narrowed(for: chunk).afterID == 10)
        #expect(window(205, 300).narrowed(for: chunk).afterID == nil)
        #expect(StoreFilter().narrowed(for: chunk).afterID == nil)
        var sealed = chunk
        sealed.sealed = true
        #expect(window(40, 60).narrowed(for: sealed).afterID == nil)
        #expect(window(40, 60).narrowed(for: ChunkInfo(file: "4.chunk.sqlite", sequence: 4)).afterID == nil)
    }

    @Test func aChunkThatInfoJSONDoesNotListIsRead() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        _ = try store(url)
        // Info.json without chunk 1 (its writer failed to save it, or it was edited): chunk 1's
        // range is not known, whatever chunks are listed after it.
        try StoreTestFiles.editChunks(url) { $0.removeFirst() }
        let reader = try LogStore.openForReading(at: url)
        #expect(try reader.records(filter: window(0, 50)).all().map(\.timestamp) == (0..<10).map(Self.at))
    }
}
