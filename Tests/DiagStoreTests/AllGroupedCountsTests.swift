import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

extension RecordGrouping {
    /// The grouping's key in the aggregate SQL `allGroupedCounts` replaced: a column, or the
    /// minute computed as `minuteStart` does.
    fileprivate var keyExpression: String {
        switch self {
        case .process, .sender, .subsystem, .category, .messageType: rawValue
        case .minute: "(timestamp - ((timestamp % 60000000000) + 60000000000) % 60000000000)"
        }
    }
}

/// `LogStore.allGroupedCounts` (what `diag stats` counts a store with, one read of each chunk)
/// against the aggregate SQL it replaced, one `GROUP BY` per grouping, run here on the same files.
@Suite struct AllGroupedCountsTests {
    /// 2,000 records in three chunks: runs of one process and interleaved ones, records without
    /// a sender or a subsystem, empty and non-ASCII texts, several levels and minutes.
    private func records() -> [LogRecord] {
        let processes = ["syncd", "pushd", "cloudd", "Café-d"]
        return (0..<2_000).map { index in
            let process = index < 300 ? "syncd" : processes[(index * 7 / 3) % processes.count]
            return LogRecord(
                timestamp: StoreTestRecords.base + Int64(index) * 997_000_000 - (index % 5 == 0 ? 90_000_000_000 : 0),
                messageType: [.default, .info, .debug, .error, .fault][index % 5],
                process: process,
                sender: index % 11 == 0 ? nil : (index % 3 == 0 ? "CoreData" : process),
                subsystem: index % 13 == 0 ? nil : (index % 17 == 0 ? "" : "com.example.\(process.lowercased())"),
                category: index % 2 == 0 ? "upload" : "ünïcode",
                eventMessage: index % 9 == 0 ? "" : "record \(index) — \(String(repeating: "é", count: index % 4))")
        }
    }

    /// The aggregate SQL of before, summed over the store's chunk files, sorted as the store sorts.
    private func reference(_ url: URL, _ grouping: RecordGrouping, whereSQL: String? = nil, bindings: [SQLValue] = []) throws -> [GroupCount] {
        var groups: [SQLValue: GroupCount] = [:]
        let folder = StoreLayout.chunkFolderURL(url)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".chunk.sqlite") {
            let database = try Database(path: folder.appendingPathComponent(name).path, options: .init(readOnly: true, create: false))
            let statement = try database.prepare("""
                SELECT \(grouping.keyExpression), count(*), coalesce(sum(length(CAST(eventMessage AS BLOB))), 0)
                FROM records\(whereSQL.map { " WHERE \($0)" } ?? "") GROUP BY 1
                """)
            try statement.bind(bindings.map { $0 as SQLValueConvertible? })
            while try statement.step() {
                let key = statement.value(at: 0)
                groups[key, default: GroupCount(key: key, count: 0, messageBytes: 0)].count += statement.int64(at: 1)
                groups[key]!.messageBytes += statement.int64(at: 2)
            }
        }
        return groups.values.sorted { ($0.count, "\($1.key)") > ($1.count, "\($0.key)") }
    }

    private func sameGroups(_ left: [GroupCount], _ right: [GroupCount]) -> Bool {
        Set(left) == Set(right) && left.map(\.count) == right.map(\.count)
    }

    private func store(_ folder: TemporaryDirectory) throws -> (URL, LogStore) {
        let url = folder.file("s.logarchive")
        let store = try LogStore.open(at: url, create: true)
        let all = records()
        try store.append(Array(all[0..<700]))
        try store.rotate()
        try store.append(Array(all[700..<1_500]))
        try store.rotate()
        try store.append(Array(all[1_500...]))
        return (url, store)
    }

    @Test func everyGroupingMatchesTheAggregateSQLWithAndWithoutACondition() throws {
        let folder = try TemporaryDirectory()
        let (url, store) = try store(folder)
        let all = try store.allGroupedCounts()
        #expect(all.count == RecordGrouping.allCases.count)
        for grouping in RecordGrouping.allCases {
            let expected = try reference(url, grouping)
            #expect(sameGroups(all[grouping] ?? [], expected), "\(grouping)")
            #expect((all[grouping] ?? []).reduce(0) { $0 + $1.count } == 2_000)
        }
        // NULL keys are counted as their own group.
        #expect(all[.sender]?.contains { $0.key == .null } == true)
        #expect(all[.subsystem]?.contains { $0.key == .text("") } == true)
        let condition = StoreFilter(whereSQL: "process = ? AND messageType >= ?", bindings: [.text("pushd"), .int(1)])
        let selected = try store.allGroupedCounts(filter: condition)
        for grouping in RecordGrouping.allCases {
            let expected = try reference(url, grouping, whereSQL: "process = ? AND messageType >= ?", bindings: [.text("pushd"), .int(1)])
            #expect(sameGroups(selected[grouping] ?? [], expected), "\(grouping) with a condition")
        }
        #expect(try store.groupedCounts(by: .category) == all[.category])
    }

    /// A chunk made elsewhere with other types where texts and integers belong: each value is
    /// counted under the key the aggregate SQL gave it.
    @Test func oddColumnTypesAreKeyedAsTheAggregateSQLKeyedThem() throws {
        let folder = try TemporaryDirectory()
        let (url, store) = try store(folder)
        let folderURL = StoreLayout.chunkFolderURL(url)
        let first = try #require(try FileManager.default.contentsOfDirectory(atPath: folderURL.path).sorted().first { $0.hasSuffix(".chunk.sqlite") })
        let database = try Database(path: folderURL.appendingPathComponent(first).path, options: .init(create: false))
        try database.execute("""
            UPDATE records SET process = 42 WHERE id % 10 = 1;
            UPDATE records SET sender = 2.5 WHERE id % 10 = 2;
            UPDATE records SET category = x'00ff' WHERE id % 10 = 3;
            UPDATE records SET messageType = 'loud' WHERE id % 10 = 4;
            """)
        let reopened = try LogStore.openForReading(at: url)
        let all = try reopened.allGroupedCounts()
        for grouping in RecordGrouping.allCases {
            #expect(sameGroups(all[grouping] ?? [], try reference(url, grouping)), "\(grouping)")
        }
        // A TEXT column stores the number as text; the INTEGER one keeps the text it was given.
        #expect(all[.process]?.contains { $0.key == .text("42") } == true)
        #expect(all[.messageType]?.contains { $0.key == .text("loud") } == true)
        withExtendedLifetime(store) {}
    }

    /// Counted on one thread or several, the same figures; a chunk that cannot be read ends the
    /// count with an error that names it, whichever thread met it.
    @Test func threadsCountTheSameAndADamagedChunkIsNamed() throws {
        let folder = try TemporaryDirectory()
        let (url, store) = try store(folder)
        let one = try store.allGroupedCounts(threads: 1)
        let two = try store.allGroupedCounts(threads: 2)
        for grouping in RecordGrouping.allCases {
            #expect(sameGroups(one[grouping] ?? [], two[grouping] ?? []), "\(grouping)")
        }
        let files = StoreLayout.chunkFiles(in: url)
        #expect(files.count == 3)
        let damaged = StoreLayout.chunkURL(url, file: files[1])
        try Data(repeating: 0x5A, count: 8_192).write(to: damaged)
        for threads in [1, 2] {
            let error = #expect(throws: StoreError.self) { _ = try LogStore.openForReading(at: url).allGroupedCounts(threads: threads) }
            #expect(error?.description.contains(files[1]) == true, "\(threads) threads: \(String(describing: error))")
        }
        withExtendedLifetime(store) {}
    }
}
