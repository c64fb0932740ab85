import DiagGenerator
import DiagModel
import DiagStore
import Foundation
import Testing
import TestSupport
@testable import DiagQuery

/// A scan of chunks larger than `RecordCursor.recordsPerSlice`: the chunks are read in time
/// slices on several threads, and the output is still the single-thread output byte for byte,
/// also where many records share one timestamp across a slice's edge.
@Suite struct StoreRowsSliceTests {
    /// Two sealed chunks of 2.5 slices each; every 64 records share one timestamp (the chunks stay apart in time).
    private func store(_ folder: TemporaryDirectory) throws -> (URL, [LogRecord]) {
        let perChunk = RecordCursor.recordsPerSlice * 5 / 2
        var records = Array(RecordGenerator(GeneratorOptions(count: perChunk * 2, seed: 11)))
        let base = records[0].timestamp
        for index in records.indices { records[index].timestamp = base + Int64(index / 64) * 1_000_000 }
        let url = folder.file("store")
        let store = try LogStore.open(at: url, create: true)
        for start in stride(from: 0, to: records.count, by: perChunk) {
            try store.append(Array(records[start..<start + perChunk]))
            try store.rotate()
        }
        try store.close()
        return (url, records)
    }

    private func output(_ query: LogQuery, _ url: URL, threads: Int) throws -> [UInt8] {
        let rows = try #require(try query.openStoreRows([.store(url)]))
        var bytes: [UInt8] = []
        try rows.writeNDJSON(threads: threads, offsets: { { _ in 0 } }) { lines, _ in bytes += lines }
        return bytes
    }

    @Test func slicedScansGiveTheSingleThreadOutput() throws {
        let folder = try TemporaryDirectory("store-rows-slices")
        let (url, records) = try store(folder)
        let everything = LogQuery(selection: RecordSelection(includeInfo: true, includeDebug: true))
        let single = try output(everything, url, threads: 1)
        let parts = try LogStore.openForReading(at: url).records(filter: StoreFilter()).disjointParts()
        #expect(parts?.count == 6, "two chunks of 2.5 slices each are read as 3 + 3 slices")
        let expected = records.map { $0.jsonString() + "\n" }.joined()
        #expect(String(decoding: single, as: UTF8.self) == expected)
        for threads in [2, 3] {
            #expect(try output(everything, url, threads: threads) == single)
        }
        // A window inside the second chunk, cutting slices in the middle.
        let from = records[RecordCursor.recordsPerSlice * 3 + 7].timestamp
        let to = records[RecordCursor.recordsPerSlice * 4 + 123].timestamp
        let window = LogQuery(selection: RecordSelection(start: from, end: to, includeInfo: true, includeDebug: true))
        let inWindow = records.filter { $0.timestamp >= from && $0.timestamp < to }.map { $0.jsonString() + "\n" }.joined()
        #expect(String(decoding: try output(window, url, threads: 2), as: UTF8.self) == inWindow)
        // The same window with a predicate SQL decides: sliced in proportion (64 records share
        // each timestamp, so slice edges fall inside runs of equal times), the same bytes.
        let process = try #require(records[RecordCursor.recordsPerSlice * 3 + 50].process)
        let condition = QueryCondition(sqlWhere: "process = ?", bindings: [.text(process)], matches: { $0.process == process })
        let sqlWindow = LogQuery(selection: window.selection, condition: condition)
        let selected = records.filter { $0.timestamp >= from && $0.timestamp < to && $0.process == process }
        #expect(!selected.isEmpty)
        #expect(String(decoding: try output(sqlWindow, url, threads: 2), as: UTF8.self)
                == selected.map { $0.jsonString() + "\n" }.joined())
    }

    @Test func slicesCoverTheChunkWithoutOverlap() throws {
        var chunk = ChunkInfo(file: "c", sequence: 1)
        chunk.sealed = true
        chunk.recordCount = Int64(RecordCursor.recordsPerSlice * 4)
        chunk.oldestTimestamp = -5_000
        chunk.newestTimestamp = 1_000_000
        let slices = RecordCursor.slices(of: chunk, filter: StoreFilter())
        #expect(slices.count == 4)
        #expect(slices.first?.start == nil)
        #expect(slices.last?.end == nil)
        for (earlier, later) in zip(slices, slices.dropFirst()) {
            #expect(earlier.end != nil && earlier.end == later.start)
        }
        // A selective filter (SQL or the search index) is not sliced.
        #expect(RecordCursor.slices(of: chunk, filter: StoreFilter(whereSQL: "process = ?", bindings: [.text("a")])).count == 1)
        // Extreme timestamps that would overflow the span are not sliced.
        chunk.oldestTimestamp = .min
        chunk.newestTimestamp = .max - 1
        #expect(RecordCursor.slices(of: chunk, filter: StoreFilter()).count == 1)
    }
}
