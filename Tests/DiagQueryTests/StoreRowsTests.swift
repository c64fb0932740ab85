import DiagGenerator
import DiagModel
import DiagStore
import Foundation
import Testing
import TestSupport
@testable import DiagQuery

/// `diag show --style ndjson` on one store: rows formatted from the columns, on one thread or
/// several, give the bytes and order of the decoded records.
@Suite struct StoreRowsTests {
    static let records = Array(RecordGenerator(GeneratorOptions(count: 4000, seed: 7)))

    /// A store of sealed chunks apart in time, 700 records each, and the expected NDJSON.
    static func store(_ folder: TemporaryDirectory) throws -> URL {
        let url = folder.file("store")
        let store = try LogStore.open(at: url, create: true)
        for start in stride(from: 0, to: Self.records.count, by: 700) {
            try store.append(Array(Self.records[start..<min(start + 700, Self.records.count)]))
            try store.rotate()
        }
        try store.close()
        return url
    }

    /// The path of the store's third chunk file, for tests that damage a row in it.
    static func thirdChunk(of url: URL) throws -> String {
        let info = try LogStore.open(at: url, options: .readOnly).info
        return url.appendingPathComponent("Persist").appendingPathComponent(info.chunks[2].file).path
    }

    private func output(_ query: LogQuery, _ url: URL, threads: Int, offset: Int = 0) throws -> (text: String, count: Int) {
        let rows = try #require(try query.openStoreRows([.store(url)]))
        var bytes: [UInt8] = []
        var count = 0
        try rows.writeNDJSON(threads: threads, offsets: { { _ in offset } }) { lines, records in
            bytes += lines
            count += records
        }
        return (String(decoding: bytes, as: UTF8.self), count)
    }

    @Test(arguments: [1, 2, 3])
    func threadsGiveTheDecodedRecordsInOrder(threads: Int) throws {
        let folder = try TemporaryDirectory("store-rows")
        let url = try Self.store(folder)
        let condition = QueryCondition(
            residual: { $0.eventMessage.contains("e") }, messageResidual: { String(decoding: $0, as: UTF8.self).contains("e") },
            matches: { $0.eventMessage.contains("e") })
        let selection = RecordSelection(includeInfo: true, includeDebug: true)
        let expected = Self.records.filter { condition.matches($0) }.sorted { $0.timestamp < $1.timestamp }
        #expect(expected.count > 1000)
        let (text, count) = try output(LogQuery(selection: selection, condition: condition), url, threads: threads, offset: 3600)
        #expect(count == expected.count)
        #expect(text == expected.map { $0.jsonString(offsetSeconds: 3600) + "\n" }.joined())
        let all = try output(LogQuery(selection: RecordSelection()), url, threads: threads)
        #expect(all.text == Self.records.filter { RecordSelection().matches($0) }.sorted { $0.timestamp < $1.timestamp }.map { $0.jsonString() + "\n" }.joined())
    }

    @Test func aResidualReadingOtherFieldsTakesTheRecordPath() throws {
        let folder = try TemporaryDirectory("store-rows-other")
        let url = try Self.store(folder)
        let condition = QueryCondition(residual: { $0.process == "notifier" }, matches: { $0.process == "notifier" })
        #expect(try LogQuery(condition: condition).openStoreRows([.store(url)]) == nil)
        #expect(try LogQuery().openStoreRows([.store(url), .store(url)]) == nil)
    }

    @Test(arguments: [1, 2])
    func aDamagedRowEndsTheOutputAfterTheRowsBeforeIt(threads: Int) throws {
        let folder = try TemporaryDirectory("store-rows-damaged")
        let url = try Self.store(folder)
        let third = try StoreRowsTests.thirdChunk(of: url)
        try Database(path: third).execute("UPDATE records SET messageType = 9 WHERE id = 300")
        let query = LogQuery(selection: RecordSelection(includeInfo: true, includeDebug: true))
        let rows = try #require(try query.openStoreRows([.store(url)]))
        var count = 0
        let error = #expect(throws: QueryError.self) {
            try rows.writeNDJSON(threads: threads, offsets: { { _ in 0 } }) { _, records in count += records }
        }
        #expect(error?.description.contains("record id 300: column messageType holds 9") == true)
        #expect(count == 2 * 700 + 299)
    }

    @Test func overlappingOrUnsealedChunksAreNotSplit() throws {
        let folder = try TemporaryDirectory("store-rows-overlap")
        let store = try LogStore.open(at: folder.file("store"), create: true)
        try store.append(Array(Self.records[0..<100]))
        try store.rotate()
        #expect(store.records().disjointParts() == nil, "one chunk")
        try store.append(Array(Self.records[50..<150]))
        try store.rotate()
        #expect(store.records().disjointParts() == nil, "overlapping chunks")
        let apart = try LogStore.open(at: folder.file("apart"), create: true)
        try apart.append(Array(Self.records[0..<100]))
        try apart.rotate()
        try apart.append(Array(Self.records[100..<200]))
        try apart.rotate()
        #expect(apart.records().disjointParts()?.count == 2)
        try apart.append(Array(Self.records[200..<300]))
        #expect(apart.records().disjointParts() == nil, "an unsealed chunk")
        #expect(apart.records(filter: StoreFilter(limit: 5)).disjointParts() == nil, "a limit")
    }
}
