import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

/// `ChunkInfo.timeBuckets`: which 256ths of a sealed chunk's time range hold records, measured
/// at its seal and kept in `Info.json`, so that a window read skips a chunk a few stray records
/// stretch over it without opening it; the records a read returns stay the same.
@Suite struct ChunkTimeBucketsTests {
    private static let minute: Int64 = 60_000_000_000
    private static let day = 1_440 * minute

    /// Three sealed chunks: in each, 2,000 records a millisecond apart from its own start (chunk
    /// `c` at `base + c` hours), and two stray records a day and two days later (a client whose
    /// clock was off, diagd's own records in a benchmark), the second chunk's first; then an open
    /// chunk of 10 records.
    private func store(_ url: URL) throws -> LogStore {
        let store = try LogStore.open(at: url, create: true, options: LogStore.Options(sealOnRotation: false))
        for chunk in 0..<3 {
            let start = StoreTestRecords.base + Int64(chunk) * 60 * Self.minute
            var records = (0..<2_000).map { index in
                LogRecord(timestamp: start + Int64(index) * 1_000_000, process: "p\(index % 3)", eventMessage: "record \(chunk)-\(index)")
            }
            let strays = [start + Self.day, start + 2 * Self.day].map { LogRecord(timestamp: $0, process: "stray", eventMessage: "stray \(chunk)") }
            records.insert(contentsOf: strays, at: chunk == 1 ? 0 : records.count)
            try store.append(records)
            try store.rotate()
        }
        #expect(try store.sealPendingChunks() == 3)
        try store.append((0..<10).map { StoreTestRecords.full($0, timestamp: StoreTestRecords.base + 180 * Self.minute + Int64($0)) })
        return store
    }

    private func window(_ from: Int64, _ to: Int64) -> StoreFilter { StoreFilter(start: from, end: to) }

    @Test func theSealMeasuresTheBucketsAndTheEmptyOnesAreSkipped() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        let writer = try store(url)
        defer { try? writer.close() }
        let info = try LogStore.openForReading(at: url).info
        #expect(info.chunks.map { $0.timeBuckets == nil } == [false, false, false, true], "the open chunk has none")
        for (index, chunk) in info.chunks.prefix(3).enumerated() {
            let stored = try #require(chunk.timeBuckets)
            let buckets = try #require(ChunkTimeBuckets(stored: stored))
            #expect(buckets.start == chunk.oldestTimestamp)
            #expect(buckets.cover(oldest: chunk.oldestTimestamp!, newest: chunk.newestTimestamp!))
            // Two days and two seconds cut in 256: the first bucket holds the 2,000 records, one
            // in the middle the first stray, the last the second; nothing else.
            let set = (0..<ChunkTimeBuckets.count).filter { buckets.holds($0) }
            #expect(set == [0, 127, 255], "chunk \(index): \(set)")
            let start = StoreTestRecords.base + Int64(index) * 60 * Self.minute
            #expect(window(start, start + Self.minute).mayHoldRecords(of: chunk))
            // A bucket is 11¼ minutes here: an hour on is well inside the gap.
            #expect(window(start + 3 * Self.minute, start + 4 * Self.minute).mayHoldRecords(of: chunk), "the first bucket")
            #expect(!window(start + 60 * Self.minute, start + 61 * Self.minute).mayHoldRecords(of: chunk), "in the gap")
            #expect(window(start + Self.day - Self.minute, start + Self.day + Self.minute).mayHoldRecords(of: chunk), "the stray")
            #expect(!window(start + Self.day + 10 * Self.minute, start + Self.day + 20 * Self.minute).mayHoldRecords(of: chunk))
            #expect(StoreFilter().mayHoldRecords(of: chunk), "no window")
            #expect(StoreFilter(start: start + Self.day).mayHoldRecords(of: chunk), "open-ended")
        }
        // The open chunk is read whatever its range says.
        #expect(window(0, 1).mayHoldRecords(of: info.chunks[3]))
        // A search index built later measures them again, the same.
        #expect(try writer.buildSearchIndexes() == 3)
        let indexed = try LogStore.openForReading(at: url).info
        #expect(indexed.chunks.map(\.timeBuckets) == info.chunks.map(\.timeBuckets))
    }

    /// A skipped chunk is not opened: with the first chunk's file replaced by one that is not
    /// SQLite, a window that only its stray records' range stretches over reads the others, and
    /// one that meets its records fails naming it.
    @Test func aSkippedChunkIsNotOpened() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        try store(url).close()
        let info = try LogStore.openForReading(at: url).info
        let first = StoreLayout.chunkURL(url, file: info.chunks[0].file)
        try Data(repeating: 0x41, count: 8_192).write(to: first)
        let reader = try LogStore.openForReading(at: url)
        let second = StoreTestRecords.base + 60 * Self.minute
        // The first chunk's range (two days) covers that minute; its buckets (11¼ minutes each) do not.
        let found = try reader.records(filter: window(second, second + Self.minute)).all()
        #expect(found.count == 2_000 && found.allSatisfy { $0.eventMessage.hasPrefix("record 1-") })
        #expect(throws: (any Error).self) { try reader.records(filter: window(StoreTestRecords.base, StoreTestRecords.base + Self.minute)).all() }
    }

    /// Every read of a window returns the same records with the buckets as without them (the
    /// `Info.json` entries stripped of them), and as a filter of all the records: windows over
    /// the bulk, the gaps, the strays, the edges of buckets, open-ended, across chunks.
    @Test func readsAgreeRecordForRecordWithAndWithoutTheBuckets() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        try store(url).close()
        let bare = folder.file("bare.logarchive")
        try FileManager.default.copyItem(at: url, to: bare)
        try StoreTestFiles.editChunks(bare) { chunks in for index in chunks.indices { chunks[index]["timeBuckets"] = nil } }
        #expect(try LogStore.openForReading(at: bare).info.chunks.allSatisfy { $0.timeBuckets == nil })
        let withBuckets = try LogStore.openForReading(at: url)
        let without = try LogStore.openForReading(at: bare)
        let all = try without.records(filter: StoreFilter()).all()
        #expect(all.count == 3 * 2_002 + 10)
        let stored = try #require(withBuckets.info.chunks[0].timeBuckets)
        let buckets = try #require(ChunkTimeBuckets(stored: stored))
        var windows: [(Int64?, Int64?)] = [(nil, nil)]
        let base = StoreTestRecords.base
        for start in [base - 1, base, base + 1_999_000_000, base + 2_000_000_000, base + 15 * Self.minute, base + 60 * Self.minute, base + 130 * Self.minute, base + 180 * Self.minute,
                      base + Self.day, base + Self.day + 10 * Self.minute, base + 2 * Self.day, buckets.start + buckets.width,
                      buckets.start + 127 * buckets.width, buckets.start + 128 * buckets.width - 1, buckets.end - 1]
        {
            for length in [1, 1_000_000, Self.minute, 11 * Self.minute, Self.day, 3 * Self.day] { windows.append((start, start + length)) }
            windows.append((start, nil))
            windows.append((nil, start))
        }
        for (from, to) in windows {
            let filter = StoreFilter(start: from, end: to)
            let expected = all.filter { ($0.timestamp >= from ?? .min) && ($0.timestamp < to ?? .max) }
            let read = try withBuckets.records(filter: filter).all()
            #expect(read == (try without.records(filter: filter).all()), "\(String(describing: from))..<\(String(describing: to))")
            #expect(read.count == expected.count && Set(read.map(\.eventMessage)) == Set(expected.map(\.eventMessage)),
                    "\(String(describing: from))..<\(String(describing: to))")
        }
    }

    @Test func storedBucketsOfTheWrongShapeAreIgnored() throws {
        let words: [Int64] = [1, 0, 0, Int64(bitPattern: 1 << 63)]
        #expect(ChunkTimeBuckets(stored: [100, 1] + words) != nil)
        for bad: [Int64] in [[], [100, 1], [100, 1] + words.dropLast(), [100, 1] + words + [0], [100, 0] + words, [100, -5] + words,
                             [100, .max / 100] + words, [.max - 100, 1] + words]
        {
            #expect(ChunkTimeBuckets(stored: bad) == nil, "\(bad)")
        }
        // Buckets that do not cover the chunk's range say nothing of it: the range decides.
        var chunk = ChunkInfo(file: "0000000000000001.chunk.sqlite", sequence: 1, sealed: true, recordCount: 10,
                              oldestTimestamp: 100, newestTimestamp: 611, timeBuckets: [100, 1] + words)
        #expect(StoreFilter(start: 300, end: 301).mayHoldRecords(of: chunk), "611 lies past the buckets' end (356)")
        chunk.timeBuckets = [100, 2] + words
        #expect(!StoreFilter(start: 300, end: 301).mayHoldRecords(of: chunk), "covered: bucket 100 is empty")
        #expect(StoreFilter(start: 100, end: 101).mayHoldRecords(of: chunk), "bucket 0")
        #expect(StoreFilter(start: 99, end: 101).mayHoldRecords(of: chunk))
        #expect(StoreFilter(start: 100 + 2 * 255, end: 1_000).mayHoldRecords(of: chunk), "bucket 255")
        #expect(!StoreFilter(start: 102, end: 100 + 2 * 255).mayHoldRecords(of: chunk), "buckets 1 to 254 are empty")
        chunk.sealed = false
        #expect(StoreFilter(start: 300, end: 301).mayHoldRecords(of: chunk), "an unsealed chunk's are not used")
    }

    /// In `Info.json`, a value that is not a list of integers is refused by its place, as any.
    @Test func aWrongValueInInfoJSONIsRefusedByPlace() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        try store(url).close()
        try StoreTestFiles.editChunks(url) { chunks in chunks[1]["timeBuckets"] = ["a", "b"] }
        #expect {
            _ = try StoreInfo.load(from: StoreLayout.infoURL(url))
        } throws: { error in
            "\(error)".contains("chunks[1].timeBuckets")
        }
    }
}
