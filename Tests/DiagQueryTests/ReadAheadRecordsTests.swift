import DiagGenerator
import DiagModel
import DiagStore
import Foundation
import Testing
import TestSupport
@testable import DiagQuery

/// The records read ahead on their own thread are the query's, in its order, with its refused
/// count and its failure; a reader that stops early does not leave the thread waiting.
@Suite struct ReadAheadRecordsTests {
    static let records = Array(RecordGenerator(GeneratorOptions(count: 5000, seed: 7)))
    private let all = LogQuery(selection: RecordSelection(includeInfo: true, includeDebug: true))

    private func ndjson(_ records: some Sequence<LogRecord>) -> String {
        records.map { $0.jsonString() + "\n" }.joined()
    }

    @Test(arguments: [1, 7, 1024])
    func theSameRecordsInTheSameOrder(batchSize: Int) throws {
        let folder = try TemporaryDirectory("read-ahead")
        let storeURL = folder.file("store")
        let store = try LogStore.open(at: storeURL, create: true)
        try store.append(Array(Self.records.prefix(2000)))
        try store.rotate()
        try store.append(Array(Self.records.dropFirst(2000)))
        try store.close()
        let records = ReadAheadRecords(try all.open([.store(storeURL)], onIssue: { _ in }), batchSize: batchSize, batches: 2)
        var read: [LogRecord] = []
        while let record = try records.next() { read.append(record) }
        #expect(read == Self.records)
        #expect(try records.next() == nil)
        #expect(records.refusedCount == 0)
    }

    @Test func refusedLinesAreCountedOnceTheEndIsReached() throws {
        let folder = try TemporaryDirectory("read-ahead-refused")
        let good = ndjson(Self.records.prefix(3))
        let file = try folder.write("mixed.ndjson", good + "{oops\n" + good + "not json either\n")
        let records = ReadAheadRecords(try all.open([.file(file)], onIssue: { _ in }), batchSize: 2)
        var count = 0
        while try records.next() != nil { count += 1 }
        #expect(count == 6)
        #expect(records.refusedCount == 2)
    }

    @Test func aReaderThatStopsEarlyReleasesTheThread() throws {
        let folder = try TemporaryDirectory("read-ahead-early")
        let file = try folder.write("records.ndjson", ndjson(Self.records))
        for _ in 0..<20 {
            // One record taken of 5000, with room for only two small batches: the reading thread
            // is waiting to hand over more when the reader goes away, and must end (deinit waits for it).
            let records = ReadAheadRecords(try all.open([.file(file)], onIssue: { _ in }), batchSize: 16, batches: 1)
            #expect(try records.next() == Self.records[0])
        }
    }

    @Test func aFailureOfTheQueryReachesTheReaderAfterTheRecordsBeforeIt() throws {
        let folder = try TemporaryDirectory("read-ahead-failure")
        let storeURL = folder.file("store")
        let store = try LogStore.open(at: storeURL, create: true)
        try store.append(Array(Self.records.prefix(100)))
        try store.close()
        let chunk = try #require(try FileManager.default.contentsOfDirectory(atPath: storeURL.appendingPathComponent("Persist").path)
            .first { $0.hasSuffix(".chunk.sqlite") })
        let results = try all.open([.store(storeURL)], onIssue: { _ in })
        // The chunk is damaged after the query opened: reading it fails part way or at once.
        let path = storeURL.appendingPathComponent("Persist").appendingPathComponent(chunk).path
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 4096)
        try handle.close()
        let records = ReadAheadRecords(results, batchSize: 8)
        var read = 0
        let failure = #expect(throws: (any Error).self) {
            while try records.next() != nil { read += 1 }
        }
        #expect(failure != nil)
        #expect(read < 100)
    }
}
