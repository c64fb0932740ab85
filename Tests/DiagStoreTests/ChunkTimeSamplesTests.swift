import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

/// `ChunkInfo.timeSamples`: measured when a chunk is sealed and kept in `Info.json`, so that a
/// read which cuts overlapping chunks into time slices does not open each chunk to sample it
/// first; a stranger's values are checked, and at worst cost time.
@Suite struct ChunkTimeSamplesTests {
    /// Two chunks of 6,000 records whose times interleave, bunched: in each, the first 4,500
    /// records within the first tenth of the chunk's time, the rest spread over the other nine
    /// tenths. Both sealed, then a record in an open chunk.
    private func store(_ url: URL) throws -> LogStore {
        let store = try LogStore.open(at: url, create: true, options: LogStore.Options(sealOnRotation: false))
        for chunk in 0..<2 {
            let records = (0..<6_000).map { index -> LogRecord in
                let micros = index < 4_500 ? Int64(index) * 22 : 100_000 + Int64(index - 4_500) * 600
                return LogRecord(timestamp: StoreTestRecords.base + (micros * 2 + Int64(chunk)) * 1_000, process: "p\(index % 3)",
                                 eventMessage: "record \(chunk)-\(index)")
            }
            try store.append(records)
            try store.rotate()
        }
        #expect(try store.sealPendingChunks() == 2)
        try store.append([LogRecord(timestamp: StoreTestRecords.base + 10_000_000_000_000, eventMessage: "later")])
        return store
    }

    @Test func theSealKeepsTheSamplesInInfoJSON() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        let writer = try store(url)
        defer { try? writer.close() }
        let info = try LogStore.openForReading(at: url).info
        #expect(info.chunks.map { $0.timeSamples == nil } == [false, false, true], "the open chunk has none")
        for chunk in info.chunks.prefix(2) {
            let samples = try #require(chunk.timeSamples)
            #expect(samples.count == ChunkTimeSamples.count + 1)
            #expect(samples == samples.sorted())
            #expect(samples.first == chunk.oldestTimestamp && samples.last == chunk.newestTimestamp)
            // The same as sampling the file now.
            let sampled = try #require(ChunkTimeSamples(chunk: chunk, path: StoreLayout.chunkURL(url, file: chunk.file).path))
            #expect(sampled.times == samples)
            // Three quarters of the records in the first tenth of the time: so do the samples.
            let tenth = chunk.oldestTimestamp! + (chunk.newestTimestamp! - chunk.oldestTimestamp!) / 10
            #expect(samples.filter { $0 <= tenth }.count == ChunkTimeSamples.count * 3 / 4 + 1)
        }
        // A search index built later keeps them.
        #expect(try writer.buildSearchIndexes() == 2)
        let indexed = try LogStore.openForReading(at: url).info
        #expect(indexed.chunks.prefix(2).allSatisfy { $0.searchIndex })
        #expect(indexed.chunks.map(\.timeSamples) == info.chunks.map(\.timeSamples))
    }

    @Test func storedSamplesAreUsedWithoutTheFileAndCheckedFirst() throws {
        let chunk = ChunkInfo(file: "0000000000000001.chunk.sqlite", sequence: 1, sealed: true, recordCount: 100,
                              oldestTimestamp: 100, newestTimestamp: 200, timeSamples: [200, 100, 150])
        let missing = "/nonexistent/0000000000000001.chunk.sqlite"
        #expect(ChunkTimeSamples.of(chunk, path: missing)?.times == [100, 150, 200], "no file needed; sorted")
        // Values that cannot be this chunk's are not used: the file is sampled instead (here
        // there is none, so the caller spreads the records evenly).
        for bad: [Int64] in [[], [150], [100, 150, 201], [99, 150], Array(repeating: 150, count: ChunkTimeSamples.maximumStored + 1)] {
            var strange = chunk
            strange.timeSamples = bad
            #expect(ChunkTimeSamples.of(strange, path: missing) == nil, "\(bad.count) samples")
        }
    }

    @Test func theSamplesPlaceTheCutsAndAStrangersChangeNoRecord() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        let writer = try store(url)
        defer { try? writer.close() }
        let sealed = Array(try LogStore.openForReading(at: url).info.chunks.prefix(2))
        let filter = StoreFilter(whereSQL: "process = ?", bindings: [.text("p1")])
        let paths = { (file: String) in StoreLayout.chunkURL(url, file: file).path }
        let cuts = RecordCursor.overlapCuts(of: sealed, filter: filter, threads: 2, pathOf: paths)
        // Equal records, not equal time: the slices of the bunched first tenth are short.
        let range = sealed[0].newestTimestamp! - sealed[0].oldestTimestamp!
        #expect(cuts.count == 3)
        #expect(cuts.filter { $0 - sealed[0].oldestTimestamp! < range / 10 }.count >= 2, "\(cuts)")
        // Without samples, and with no file to sample, the cuts fall by time.
        let unsampled = sealed.map { chunk -> ChunkInfo in
            var chunk = chunk
            chunk.timeSamples = nil
            return chunk
        }
        let even = RecordCursor.overlapCuts(of: unsampled, filter: filter, threads: 2, pathOf: { _ in "/nonexistent" })
        #expect(even.filter { $0 - sealed[0].oldestTimestamp! < range / 10 }.isEmpty, "\(even)")

        let expected = try LogStore.openForReading(at: url).records(filter: filter).all()
        #expect(expected.count == 4_000)
        // A stranger's samples that say every record is at the chunk's end: other cuts, the same records.
        try StoreTestFiles.editChunks(url) { chunks in
            for index in 0..<2 {
                let newest = chunks[index]["newestTimestamp"] as! Int64
                chunks[index]["timeSamples"] = [chunks[index]["oldestTimestamp"] as! Int64] + Array(repeating: newest, count: 64)
            }
        }
        let strange = try LogStore.openForReading(at: url)
        let strangeCuts = RecordCursor.overlapCuts(of: Array(strange.info.chunks.prefix(2)), filter: filter, threads: 2, pathOf: paths)
        #expect(strangeCuts != cuts)
        let plan = try #require(strange.records(filter: filter).overlappingParts())
        var read: [LogRecord] = []
        for part in plan.parts + plan.whole.flatMap({ $0 }) { read += try part.open().all() }
        #expect(read == expected)
        #expect(try strange.records(filter: filter).all() == expected)
    }
}
