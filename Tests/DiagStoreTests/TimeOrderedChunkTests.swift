import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

/// `ChunkInfo.timeOrdered`: measured at the seal, used by a search to read in id order without
/// a sort, and checked as it reads, so that a stranger's `Info.json` cannot misorder a read.
@Suite struct TimeOrderedChunkTests {
    private static let messages = ["delivering push to device", "sync finished", "Café push failed", "push"]

    /// 300 records, 4 of each time (ties), with the search's needle in half of them; in id order
    /// the times ascend, or, `shuffled`, a later record has an earlier time every 7th record.
    private func records(shuffled: Bool) -> [LogRecord] {
        (0..<300).map { index in
            let second = shuffled && index % 7 == 6 ? index / 4 - 5 : index / 4
            return LogRecord(timestamp: StoreTestRecords.base + Int64(second) * 1_000_000_000, process: index % 3 == 0 ? "syncd" : "pushd",
                             eventMessage: Self.messages[index % Self.messages.count] + " #\(index)")
        }
    }

    /// A store of one sealed chunk holding `records` with its search index, and an open chunk.
    private func store(_ folder: TemporaryDirectory, _ records: [LogRecord]) throws -> URL {
        let url = folder.file("s.logarchive")
        let store = try LogStore.open(at: url, create: true)
        try store.append(records)
        try store.rotate()
        #expect(try store.buildSearchIndexes() == 1)
        try store.append([LogRecord(timestamp: StoreTestRecords.base + 1_000_000_000_000, eventMessage: "push later")])
        return url
    }

    /// What a read must give: the records in (timestamp, insertion) order, as the cursor orders them.
    private func expected(_ records: [LogRecord], _ keep: (LogRecord) -> Bool) -> [LogRecord] {
        records.enumerated().filter { keep($0.element) }.sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }.map(\.element)
    }

    private func setTimeOrdered(_ value: Bool?, in url: URL) throws {
        let infoURL = StoreLayout.infoURL(url)
        var info = try JSONDecoder().decode(StoreInfo.self, from: Data(contentsOf: infoURL))
        info.chunks[0].timeOrdered = value
        try JSONEncoder().encode(info).write(to: infoURL)
    }

    @Test func theSealMeasuresWhetherIdsFollowTime() throws {
        let folder = try TemporaryDirectory()
        let ordered = try LogStore.openForReading(at: store(folder, records(shuffled: false)))
        #expect(ordered.info.chunks.map(\.timeOrdered) == [true, nil])
        let other = try TemporaryDirectory()
        let shuffled = try LogStore.openForReading(at: store(other, records(shuffled: true)))
        #expect(shuffled.info.chunks.map(\.timeOrdered) == [false, nil])
    }

    @Test func aSearchOfATimeOrderedChunkReadsInIdOrderAndGivesTheSortedReadsRecords() throws {
        let folder = try TemporaryDirectory()
        let all = records(shuffled: false)
        let url = try store(folder, all)
        let store = try LogStore.openForReading(at: url)
        let chunk = store.info.chunks[0]
        #expect(chunk.timeOrdered == true)
        let search = StoreFilter(messageSearch: [MessageSearchIndex.fold("PUSH")])
        // The path under test: a whole-chunk search of this chunk is read in id order, and a
        // window (or an unknown order) keeps the sort.
        let condition = ChunkCondition(filter: search, searchIndex: true)
        #expect(condition.selectsByID)
        #expect(ChunkReader.readsInIDOrder(chunk: chunk, filter: search, condition: condition))
        var windowed = search
        windowed.start = StoreTestRecords.base
        #expect(!ChunkReader.readsInIDOrder(chunk: chunk, filter: windowed, condition: condition))
        var unknown = chunk
        unknown.timeOrdered = nil
        #expect(!ChunkReader.readsInIDOrder(chunk: unknown, filter: search, condition: condition))

        let found = try store.records(filter: search).all()
        let sealed = expected(all) { MessageSearchIndex.fold($0.eventMessage).contains("push") }
        #expect(found.count == sealed.count + 1)
        #expect(Array(found.prefix(sealed.count)) == sealed)
        // The same records, in the same order, read sorted once the flag is gone.
        try setTimeOrdered(nil, in: url)
        #expect(try LogStore.openForReading(at: url).records(filter: search).all() == found)
        // With another condition beside the search.
        var process = search
        process.whereSQL = "process = ?"
        process.bindings = [.text("syncd")]
        try setTimeOrdered(true, in: url)
        let both = try LogStore.openForReading(at: url).records(filter: process).all()
        #expect(both == expected(all) { $0.process == "syncd" && MessageSearchIndex.fold($0.eventMessage).contains("push") })
    }

    /// A chunk whose ids do not follow time, read whole with a condition no index serves: SQLite
    /// would walk the timestamp index from end to end, each step a row elsewhere in the file; the
    /// reader scans the table instead and sorts what it keeps, and gives the same records in the
    /// same order. A window, a limit, or a condition an index serves keeps SQLite's own plan.
    @Test func aWholeReadOutOfTimeOrderScansTheTableAndSortsInsteadOfWalkingTheTimeIndex() throws {
        let folder = try TemporaryDirectory()
        let all = records(shuffled: true)
        let url = try store(folder, all)
        let store = try LogStore.openForReading(at: url)
        let chunk = store.info.chunks[0]
        #expect(chunk.timeOrdered == false)
        let path = store.chunkPath(chunk.file)
        let scan = StoreFilter(whereSQL: "instr(eventMessage, ?) > 0", bindings: [.text("push")])
        func sql(_ filter: StoreFilter) throws -> String {
            try #require(try ChunkReader(chunk: chunk, path: path, filter: filter)).statement.sql
        }
        // SQLite's own plan for the whole read is the walk; the reader's is the scan.
        let database = try Database(path: path, options: .init(readOnly: true, create: false))
        let walk = "SELECT \(ChunkSchema.selectColumns) FROM records WHERE (instr(eventMessage, ?) > 0) ORDER BY timestamp, id"
        #expect(try ChunkReader.walksTimestampIndex(database, sql: walk, bindings: ["push"]))
        #expect(try sql(scan).contains("FROM records NOT INDEXED WHERE"))
        let found = try store.records(filter: scan).all()
        #expect(found == expected(all) { $0.eventMessage.contains("push") } + [LogRecord(timestamp: StoreTestRecords.base + 1_000_000_000_000, eventMessage: "push later")])
        // A window that holds the chunk's whole range reads it the same way, the window kept as a condition.
        var holding = scan
        holding.start = StoreTestRecords.base - 100_000_000_000
        holding.end = StoreTestRecords.base + 1_000_000_000_000
        #expect(try sql(holding).contains("FROM records NOT INDEXED WHERE timestamp >= ? AND timestamp < ?"))
        #expect(try store.records(filter: holding).all() == expected(all) { $0.eventMessage.contains("push") })
        // An Info.json whose range for the chunk is wider than its records' changes the plan, not the records.
        var wide = chunk
        wide.oldestTimestamp = holding.end! + 1
        wide.newestTimestamp = holding.end! + 2
        #expect(!ChunkReader.mayScanInsteadOfWalkingTime(chunk: wide, filter: holding, idOrder: false))
        wide.oldestTimestamp = StoreTestRecords.base
        wide.newestTimestamp = StoreTestRecords.base + 1
        var narrow = scan
        narrow.start = StoreTestRecords.base
        narrow.end = StoreTestRecords.base + 10_000_000_000
        #expect(ChunkReader.mayScanInsteadOfWalkingTime(chunk: wide, filter: narrow, idOrder: false))
        let lied = try #require(try ChunkReader(chunk: wide, path: path, filter: narrow))
        #expect(lied.statement.sql.contains("NOT INDEXED"))
        var liedRecords: [LogRecord] = []
        while lied.hasRow {
            liedRecords.append(try lied.record())
            try lied.advance()
        }
        #expect(liedRecords == expected(all) {
            $0.eventMessage.contains("push") && $0.timestamp >= narrow.start! && $0.timestamp < narrow.end!
        })
        // The same read with a window that cuts the chunk, a limit, or a condition the process index serves.
        var windowed = scan
        windowed.start = StoreTestRecords.base + 10_000_000_000
        var limited = scan
        limited.limit = 5
        let process = StoreFilter(whereSQL: "process = ?", bindings: [.text("syncd")])
        for filter in [windowed, limited, process] {
            #expect(try !sql(filter).contains("NOT INDEXED"))
        }
        #expect(try store.records(filter: windowed).all() == expected(all) {
            $0.eventMessage.contains("push") && $0.timestamp >= windowed.start!
        } + [LogRecord(timestamp: StoreTestRecords.base + 1_000_000_000_000, eventMessage: "push later")])
        #expect(try store.records(filter: limited).all() == Array(expected(all) { $0.eventMessage.contains("push") }.prefix(5)))
        #expect(try store.records(filter: process).all() == expected(all) { $0.process == "syncd" })
        // A chunk in time order is not concerned.
        var ordered = chunk
        ordered.timeOrdered = true
        #expect(!ChunkReader.mayScanInsteadOfWalkingTime(chunk: ordered, filter: scan, idOrder: false))
    }

    /// A stranger's `Info.json` that says a chunk is in time order when it is not: the read is
    /// refused with the chunk and the records named, and the store reads whole once the flag goes.
    @Test func aFalseClaimOfTimeOrderIsRefusedByNameAndLosesNothing() throws {
        let folder = try TemporaryDirectory()
        let all = records(shuffled: true)
        let url = try store(folder, all)
        try setTimeOrdered(true, in: url)
        let search = StoreFilter(messageSearch: [MessageSearchIndex.fold("push")])
        let error = try #require(throws: StoreError.self) {
            _ = try LogStore.openForReading(at: url).records(filter: search).all()
        }
        #expect(error.kind == .badChunk)
        #expect(error.path.hasSuffix("0000000000000001.chunk.sqlite"))
        #expect(error.reason.contains("\"timeOrdered\""))
        #expect(error.reason.contains("comes after record"))
        // A read that does not pick rows by id is not concerned.
        #expect(try LogStore.openForReading(at: url).records(filter: StoreFilter()).all().count == all.count + 1)
        try setTimeOrdered(nil, in: url)
        let found = try LogStore.openForReading(at: url).records(filter: search).all()
        #expect(Array(found.prefix(found.count - 1)) == expected(all) { MessageSearchIndex.fold($0.eventMessage).contains("push") })
    }
}
