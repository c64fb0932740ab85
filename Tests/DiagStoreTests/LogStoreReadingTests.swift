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
