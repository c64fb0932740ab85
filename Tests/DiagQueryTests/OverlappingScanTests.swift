import DiagGenerator
import DiagModel
@testable import DiagStore
import Foundation
import Testing
import TestSupport
@testable import DiagQuery

/// Issue 15, "a scan that is not the bottleneck": a store whose chunks overlap in time, some
/// sealed (one with its search index), one closed but not sealed, one open and still held by
/// its writer, is read on several threads (`RecordCursor.overlappingParts`,
/// `MergedParallelBlocks`), and the output is the single-thread cursor's, record for record.
@Suite struct OverlappingScanTests {
    static let perChunk = RecordCursor.recordsPerSlice + 1_808

    /// Four chunks of `perChunk` records whose times interleave: chunk k holds times
    /// base + (4i + k) µs, a seventh of them moved later than their successor (so a chunk's id
    /// order is not its time order), and every 50th time shared by all four chunks (ties go by
    /// chunk order). Chunk 0 is sealed with its search index, chunk 1 sealed, chunk 2 closed
    /// and unsealed, chunk 3 open: the returned writer still holds it.
    static func store(_ folder: TemporaryDirectory) throws -> (url: URL, expected: [LogRecord], writer: LogStore) {
        let url = folder.file("store")
        let writer = try LogStore.open(at: url, create: true, options: LogStore.Options(sealOnRotation: false))
        let generated = Array(RecordGenerator(GeneratorOptions(count: perChunk * 4, seed: 15)))
        let base = generated[0].timestamp
        var keyed: [(record: LogRecord, key: (Int64, Int, Int))] = []
        for chunk in 0..<4 {
            var records = Array(generated[chunk * perChunk..<(chunk + 1) * perChunk])
            for index in records.indices {
                var micros = Int64(index * 4 + chunk)
                if index % 7 == 3 { micros += 6 }
                if index % 50 == 0 { micros = Int64(index * 4) }
                records[index].timestamp = base + micros * 1_000
                keyed.append((records[index], (records[index].timestamp, chunk, index)))
            }
            try writer.append(records)
            guard chunk < 3 else { break }
            try writer.rotate()
            if chunk < 2 { try writer.sealPendingChunks() }
            if chunk == 0 { try writer.buildSearchIndexes() }
        }
        keyed.sort { $0.key < $1.key }
        return (url, keyed.map(\.record), writer)
    }

    static func ndjson(_ records: [LogRecord]) -> String {
        records.map { $0.jsonString() + "\n" }.joined()
    }

    static func output(_ query: LogQuery, _ url: URL, threads: Int) throws -> String {
        let rows = try #require(try query.openStoreRows([.store(url)]))
        var bytes: [UInt8] = []
        var counted = 0
        try rows.writeNDJSON(threads: threads, offsets: { { _ in 0 } }) { lines, count in
            bytes += lines
            counted += count
        }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(counted == text.count(where: { $0 == "\n" }), "the blocks' counts add up to their lines")
        return text
    }

    /// The rows a cursor with `filter` gives, through `StoreRows` on `threads` threads.
    static func output(_ filter: StoreFilter, _ url: URL, threads: Int) throws -> String {
        let rows = StoreRows(cursor: try LogStore.openForReading(at: url).records(filter: filter), messageResidual: nil)
        var bytes: [UInt8] = []
        try rows.writeNDJSON(threads: threads, offsets: { { _ in 0 } }) { lines, _ in bytes += lines }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func theStoreIsReadAsOverlappingParts() throws {
        let folder = try TemporaryDirectory("overlapping-plan")
        let (url, _, writer) = try Self.store(folder)
        defer { try? writer.close() }
        let reader = try LogStore.openForReading(at: url)
        #expect(reader.records(filter: StoreFilter()).disjointParts() == nil, "chunks overlapping in time are not apart")
        let plan = try #require(reader.records(filter: StoreFilter()).overlappingParts())
        #expect(plan.parts.count >= 2, "the two sealed chunks (\(2 * Self.perChunk) records) are cut in time slices")
        #expect(plan.parts.allSatisfy { $0.chunks.count == 2 }, "each slice reads both sealed chunks")
        #expect(plan.whole.flatMap { $0.map(\.chunk.sealed) } == [false, false], "the closed unsealed chunk and the open one")
        #expect(reader.records(filter: StoreFilter()).overlappingParts(merging: false) == nil,
                "a reader that cannot merge is not given unsealed chunks")
    }

    @Test(arguments: [1, 2, 3])
    func overlappingAndUnsealedChunksGiveTheSingleThreadOutput(threads: Int) throws {
        let folder = try TemporaryDirectory("overlapping-scan")
        let (url, expected, writer) = try Self.store(folder)
        defer { try? writer.close() }
        let everything = LogQuery(selection: RecordSelection(includeInfo: true, includeDebug: true))
        #expect(try Self.output(everything, url, threads: threads) == Self.ndjson(expected))

        // A window that cuts every chunk, and SQL in it.
        let (from, to) = (expected[5_000].timestamp, expected[30_000].timestamp)
        let window = LogQuery(selection: RecordSelection(start: from, end: to, includeInfo: true, includeDebug: true))
        let inWindow = expected.filter { $0.timestamp >= from && $0.timestamp < to }
        #expect(try Self.output(window, url, threads: threads) == Self.ndjson(inWindow))
        let process = try #require(expected[12_345].process)
        let sql = LogQuery(selection: window.selection, condition: QueryCondition(
            sqlWhere: "process = ?", bindings: [.text(process)], matches: { $0.process == process }))
        let selected = inWindow.filter { $0.process == process }
        #expect(!selected.isEmpty)
        #expect(try Self.output(sql, url, threads: threads) == Self.ndjson(selected))
    }

    @Test(arguments: [1, 2, 3])
    func aMessageSearchGivesTheSingleThreadOutput(threads: Int) throws {
        let folder = try TemporaryDirectory("overlapping-search")
        let (url, expected, writer) = try Self.store(folder)
        defer { try? writer.close() }
        // A word of about one message in ten: searched in chunk 0's index, scanned elsewhere.
        let words = Dictionary(grouping: expected.flatMap { $0.eventMessage.split(separator: " ").map(String.init) }, by: { $0 })
        let word = try #require(words.filter { $0.key.count >= 5 && $0.value.count > 500 }.min { $0.value.count < $1.value.count }?.key)
        let needle = TextFolding.fold(word, caseInsensitive: true, diacriticInsensitive: true)
        let matches: @Sendable (String) -> Bool = { TextFolding.fold($0, caseInsensitive: true, diacriticInsensitive: true).contains(needle) }
        let query = LogQuery(selection: RecordSelection(includeInfo: true, includeDebug: true), condition: QueryCondition(
            messageSearch: [needle], residual: { matches($0.eventMessage) },
            messageResidual: { matches(String(decoding: $0, as: UTF8.self)) }, matches: { matches($0.eventMessage) }))
        let selected = expected.filter { matches($0.eventMessage) }
        #expect(selected.count > 500)
        #expect(try Self.output(query, url, threads: threads) == Self.ndjson(selected))
    }

    /// A rare word: every chunk is read whole (chunk 0 through its index, chunk 1 through its
    /// block sets, the unsealed ones as they are), dealt among a part per thread and merged.
    @Test(arguments: [1, 2, 3])
    func aRareWordReadInWholePartsGivesTheSingleThreadOutput(threads: Int) throws {
        let folder = try TemporaryDirectory("overlapping-rare")
        let (url, expected, writer) = try Self.store(folder)
        defer { try? writer.close() }
        let words = Dictionary(grouping: expected.flatMap { $0.eventMessage.split(separator: " ").map(String.init) }, by: { $0 })
        let rare = try #require(words.filter { $0.key.count >= 6 && (8...40).contains($0.value.count) }
            .min { ($0.value.count, $0.key) < ($1.value.count, $1.key) }?.key)
        let needle = TextFolding.fold(rare, caseInsensitive: true, diacriticInsensitive: true)
        let selected = expected.filter { TextFolding.fold($0.eventMessage, caseInsensitive: true, diacriticInsensitive: true).contains(needle) }
        #expect(selected.count >= 8)
        let reader = try LogStore.openForReading(at: url)
        let filter = StoreFilter(messageSearch: [needle])
        if threads > 1 {
            let plan = try #require(reader.records(filter: filter).overlappingParts(threads: threads))
            #expect(plan.parts.isEmpty, "no chunk is scanned in slices")
            #expect(plan.whole.flatMap { $0.map(\.chunk.sequence) }.sorted() == reader.info.chunks.map(\.sequence).sorted())
        }
        #expect(try Self.output(filter, url, threads: threads) == Self.ndjson(selected))
        for limit in [1, selected.count / 2] {
            var limited = filter
            limited.limit = limit
            #expect(try Self.output(limited, url, threads: threads) == Self.ndjson(Array(selected.prefix(limit))), "limit \(limit)")
        }
    }

    /// A busy diagd's store: sealed chunks apart in time, a first chunk that spans them (a
    /// record timed by the clock, long after the others), and the open chunk spanning them too.
    /// Searched for a word, every chunk is read whole: the sealed ones as one chain read at
    /// once, the spanning ones as chains of their own, all merged by time, and the output is
    /// the single thread's, with a limit too.
    @Test(arguments: [2, 3])
    func chainsOfChunksApartInTimeGiveTheSingleThreadOutput(threads: Int) throws {
        let folder = try TemporaryDirectory("overlapping-chains")
        let url = folder.file("store")
        let writer = try LogStore.open(at: url, create: true)
        defer { try? writer.close() }
        let generated = Array(RecordGenerator(GeneratorOptions(count: 6 * 6_000, seed: 17)))
        var expected: [LogRecord] = []
        for chunk in 0..<6 {
            var records = Array(generated[chunk * 6_000..<(chunk + 1) * 6_000])
            if chunk == 0 || chunk == 5 {
                // Spread over the whole time of the others, and one record days later.
                for index in records.indices { records[index].timestamp = generated[index * 6].timestamp + 1 }
                records[records.count - 1].timestamp = generated[generated.count - 1].timestamp + 3 * 86_400 * 1_000_000_000
            }
            try writer.append(records)
            expected += records
            if chunk < 5 { try writer.rotate() }
        }
        try writer.sealPendingChunks()
        expected.sort { $0.timestamp < $1.timestamp }
        let words = Dictionary(grouping: expected.flatMap { $0.eventMessage.split(separator: " ").map(String.init) }, by: { $0 })
        let word = try #require(words.filter { $0.key.count >= 5 && (300...3_000).contains($0.value.count) }
            .min { ($0.value.count, $0.key) < ($1.value.count, $1.key) }?.key)
        let needle = TextFolding.fold(word, caseInsensitive: true, diacriticInsensitive: true)
        let selected = expected.filter { TextFolding.fold($0.eventMessage, caseInsensitive: true, diacriticInsensitive: true).contains(needle) }
        let filter = StoreFilter(messageSearch: [needle])
        let plan = try #require(LogStore.openForReading(at: url).records(filter: filter).overlappingParts(threads: threads))
        #expect(plan.parts.isEmpty)
        #expect(plan.whole.map(\.count).sorted() == [1, 1, 4], "the sealed chunks apart in time are one chain")
        let single = try Self.output(filter, url, threads: 1)
        #expect(single == Self.ndjson(selected))
        #expect(try Self.output(filter, url, threads: threads) == single)
        var limited = filter
        limited.limit = selected.count / 3
        #expect(try Self.output(limited, url, threads: threads) == Self.ndjson(Array(selected.prefix(selected.count / 3))))
    }

    @Test(arguments: [1, 2, 3])
    func aLimitCutsTheMergedRows(threads: Int) throws {
        let folder = try TemporaryDirectory("overlapping-limit")
        let (url, expected, writer) = try Self.store(folder)
        defer { try? writer.close() }
        for limit in [0, 1, 777, 20_000, expected.count + 5] {
            #expect(try Self.output(StoreFilter(limit: limit), url, threads: threads) == Self.ndjson(Array(expected.prefix(limit))),
                    "limit \(limit)")
        }
        let from = expected[9_000].timestamp
        #expect(try Self.output(StoreFilter(start: from, limit: 3_000), url, threads: threads)
                == Self.ndjson(Array(expected.filter { $0.timestamp >= from }.prefix(3_000))))
    }

    @Test func recordsAppendedWhileReadingDoNotDisturbTheOrder() throws {
        let folder = try TemporaryDirectory("overlapping-appending")
        let (url, expected, writer) = try Self.store(folder)
        defer { try? writer.close() }
        let everything = LogQuery(selection: RecordSelection(includeInfo: true, includeDebug: true))
        let rows = try #require(try everything.openStoreRows([.store(url)]))
        var late = Array(RecordGenerator(GeneratorOptions(count: 500, seed: 16)))
        for index in late.indices { late[index].timestamp = expected[index * 40].timestamp + 1 }
        var bytes: [UInt8] = []
        var appended = false
        try rows.writeNDJSON(threads: 2, offsets: { { _ in 0 } }) { lines, _ in
            bytes += lines
            if !appended {
                // The open chunk grows while its rows are read: what the read started with comes
                // out, in order, whatever the reading threads saw of the new rows.
                try writer.append(late)
                appended = true
            }
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        let expectedLines = Set(expected.map { $0.jsonString() })
        let lateLines = Set(late.map { $0.jsonString() })
        #expect(lines.filter { expectedLines.contains($0) } == expected.map { $0.jsonString() })
        #expect(lines.allSatisfy { expectedLines.contains($0) || lateLines.contains($0) })
    }
}
