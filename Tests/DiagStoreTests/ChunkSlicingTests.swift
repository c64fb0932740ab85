import DiagGenerator
import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

/// How a narrow query over sealed chunks is cut into parts for several threads, which chunks
/// are read through a memory map, and connections kept open from one part to the next.
@Suite struct ChunkSlicingTests {
    private func chunk(_ sequence: Int64, records: Int64, from oldest: Int64, to newest: Int64, bytes: Int64) -> ChunkInfo {
        var chunk = ChunkInfo(file: "c\(sequence)", sequence: sequence)
        chunk.sealed = true
        chunk.recordCount = records
        chunk.oldestTimestamp = oldest
        chunk.newestTimestamp = newest
        chunk.byteCount = bytes
        return chunk
    }

    @Test func windowRecordsAreEstimatedFromTheChunksTimeRange() {
        let whole = chunk(1, records: 1_000, from: 0, to: 1_000, bytes: 1 << 20)
        #expect(RecordCursor.estimatedRecords(of: whole, in: StoreFilter()) == 1_000)
        #expect(RecordCursor.estimatedRecords(of: whole, in: StoreFilter(start: 250, end: 500)) == 250)
        #expect(RecordCursor.estimatedRecords(of: whole, in: StoreFilter(start: 900)) == 100)
        #expect(RecordCursor.estimatedRecords(of: whole, in: StoreFilter(start: 2_000)) == 0)
        #expect(RecordCursor.estimatedRecords(of: whole, in: StoreFilter(start: .min, end: .max)) == 1_000)
    }

    @Test func windowsAreCutIntoTasksOfEqualRecordsAcrossChunks() {
        // A window of 100 s: its first 10 s in one chunk, 90 s in the next, 100 records a second.
        let early = chunk(1, records: 10_000, from: 0, to: 100, bytes: 1 << 20)
        let late = chunk(2, records: 20_000, from: 100, to: 300, bytes: 1 << 20)
        let window = StoreFilter(start: 90, end: 190, whereSQL: "process = ?", bindings: [.text("a")])
        let slices = RecordCursor.balancedSlices(of: [early, late], filter: window, tasks: 4)
        #expect(slices.map(\.task) == [0, 0, 1, 2, 3])
        #expect(slices.map(\.chunk.sequence) == [1, 2, 2, 2, 2])
        // Each task is a quarter of the window (25 s): 10 s + 15 s, then 25 s each; slices are
        // half-open and open at each chunk's ends.
        #expect(slices.map(\.filter.start) == [90, 90, 115, 140, 165])
        #expect(slices.map(\.filter.end) == [190, 115, 140, 165, 190])
        var perTask = [Double](repeating: 0, count: 4)
        for slice in slices {
            perTask[slice.task] += RecordCursor.estimatedRecords(of: slice.chunk, in: slice.filter)
        }
        #expect(perTask.allSatisfy { abs($0 - perTask[0]) <= 100 }, "equal tasks: \(perTask)")

        // Fewer tasks when a task would hold under `smallestSlice` records; none to cut in one.
        let narrow = StoreFilter(start: 95, end: 125, whereSQL: "process = ?", bindings: [.text("a")])
        #expect(Set(RecordCursor.balancedSlices(of: [early, late], filter: narrow, tasks: 4).map(\.task)) == [0, 1])
        let tiny = StoreFilter(start: 99, end: 101, whereSQL: "process = ?", bindings: [.text("a")])
        #expect(RecordCursor.balancedSlices(of: [early, late], filter: tiny, tasks: 4).map(\.task) == [0, 0])
        // A chunk with nothing in the window is one slice, in the task where it falls.
        let beyond = chunk(3, records: 100, from: 400, to: 500, bytes: 4096)
        #expect(RecordCursor.balancedSlices(of: [early, late, beyond], filter: window, tasks: 4).last.map { [$0.chunk.sequence, Int64($0.task)] } == [3, 3])
    }

    @Test func onlyNarrowWindowsOfSealedChunksAreMapped() {
        let minute: Int64 = 60_000_000_000
        // Four minutes in 128 MiB: a minute is 32 MiB, under the limit of 48; two are over it.
        let big = chunk(1, records: 240_000, from: 0, to: 4 * minute, bytes: 128 << 20)
        #expect(RecordCursor.mapsChunks([big], filter: StoreFilter(start: minute, end: 2 * minute)))
        #expect(!RecordCursor.mapsChunks([big], filter: StoreFilter(start: minute, end: 3 * minute)))
        #expect(!RecordCursor.mapsChunks([big], filter: StoreFilter()), "a whole chunk of 128 MiB")
        #expect(!RecordCursor.mapsChunks([big], filter: StoreFilter(whereSQL: "process = ?", bindings: [.text("a")])),
                "SQL without a window may read anywhere in the file")
        var active = chunk(2, records: 10, from: 0, to: 10, bytes: 4096)
        active.sealed = false
        // A chunk still written is not mapped (`ChunkReader`), and does not keep the sealed ones
        // beside it from being mapped: a live store's open chunk is in every window's chunks.
        active.byteCount = 64 << 20
        #expect(RecordCursor.mapsChunks([big, active], filter: StoreFilter(start: minute, end: 2 * minute)), "a chunk still written")
        #expect(!RecordCursor.mapsChunks([big, active], filter: StoreFilter(start: minute, end: 3 * minute)))
        #expect(RecordCursor.mapsChunks([chunk(3, records: 10, from: 0, to: 10, bytes: 4096)], filter: StoreFilter()), "a small sealed chunk")
    }

    @Test func sqlWindowsInFewChunksAreCutIntoTasksForTheThreads() throws {
        let folder = try TemporaryDirectory("chunk-slicing")
        let url = folder.file("store")
        let store = try LogStore.open(at: url, create: true)
        var records = Array(RecordGenerator(GeneratorOptions(count: 20_000, seed: 5)))
        let base = records[0].timestamp
        for index in records.indices { records[index].timestamp = base + Int64(index) * 1_000_000 }
        try store.append(Array(records[..<4_000]))
        try store.rotate()
        try store.append(Array(records[4_000...]))
        try store.rotate()
        try store.close()
        let reader = try LogStore.openForReading(at: url)
        // A window of 2,000 records in the first chunk and 10,000 in the second.
        let window = StoreFilter(start: records[2_000].timestamp, end: records[14_000].timestamp,
                                 whereSQL: "process = ?", bindings: [.text("transport")])
        let parts = try #require(reader.records(filter: window).disjointParts(threads: 2))
        // 4 tasks of 3,000 records: the first chunk's 2,000 and 1,000 of the second, then three
        // of the second's slices.
        #expect(parts.count == 5)
        #expect(parts.map(\.task) == [0, 0, 1, 2, 3])
        #expect(parts.map(\.chunk.sequence) == [parts[0].chunk.sequence] + Array(repeating: parts[1].chunk.sequence, count: 4))
        #expect(parts.allSatisfy { $0.mapped }, "a small store is mapped")
        let expected = try reader.records(filter: window).all()
        #expect(!expected.isEmpty)
        let connections = ChunkConnections()
        var read: [LogRecord] = []
        for part in parts { read += try part.open(connections: connections).all() }
        #expect(read == expected, "the parts in order give the cursor's records")
        #expect(connections.opened == 2, "each chunk opened once for all its slices")
        // The second chunk's four slices differ only in their bounds' values: one SELECT,
        // prepared once and bound again for each of the three others.
        #expect(connections.reusedStatements == 3, "a slice's statement is the previous slice's, bound again")
        // Read again with the same connections while a read of the second chunk is half done:
        // that read holds the second chunk's kept statement, so the first slice of it read
        // again prepares its own, and the three after it take that one back; the first chunk's
        // slice takes its kept statement. Each comes reset, its rows all read again.
        let half = parts[1].open(connections: connections)
        _ = try half.next()
        #expect(connections.reusedStatements == 4)
        let again = try parts.map { try $0.open(connections: connections).all() }
        #expect(Array(again.joined()) == expected)
        #expect(connections.reusedStatements == 4 + 1 + 3, "a statement still read is never handed out")
        #expect(try half.all().count == (try parts[1].open().all().count) - 1, "the half-read slice kept its own statement")
        // With one thread, two tasks of 6,000 (never fewer than twice the threads), cut across
        // the chunks the same way; a task never holds more than about a slice's records
        // (`recordsPerSlice`), so that the output waiting for the writer stays bounded.
        let single = try #require(reader.records(filter: window).disjointParts(threads: 1))
        #expect(single.map(\.task) == [0, 0, 1])
        let wide = StoreFilter(whereSQL: "process = ?", bindings: [.text("transport")])
        let wideParts = try #require(reader.records(filter: wide).disjointParts(threads: 1))
        #expect(Set(wideParts.map(\.task)).count == Int((20_000.0 / Double(RecordCursor.recordsPerSlice)).rounded(.up)))
    }

    /// A store in `folder` whose 3,000 generated records (`seed`) sit in one sealed chunk without
    /// its search index; its URL, the records and its chunk folder's path.
    private func storeWithASealedChunk(in folder: TemporaryDirectory, seed: UInt64) throws -> (URL, [LogRecord], String) {
        let url = folder.file("store")
        let store = try LogStore.open(at: url, create: true)
        let records = Array(RecordGenerator(GeneratorOptions(count: 3_000, seed: seed)))
        try store.append(records)
        try store.rotate()
        try store.close()
        return (url, records, url.appendingPathComponent("Persist").path)
    }

    @Test func settledChunksAreReadWithoutLocksOrWALFiles() throws {
        // A folder name that a file: URI must escape.
        let folder = try TemporaryDirectory("settled chunk ?#% é")
        let (url, records, persist) = try storeWithASealedChunk(in: folder, seed: 9)
        func sideFiles() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: persist).filter { $0.hasSuffix("-wal") || $0.hasSuffix("-shm") }.sorted()
        }
        func chunk() throws -> (ChunkInfo, String) {
            let info = try #require(try LogStore.openForReading(at: url).info.chunks.first { $0.sealed })
            return (info, persist + "/" + info.file)
        }
        // Sealed but not indexed yet: `diag index` may still write it.
        var (info, path) = try chunk()
        #expect(!ChunkConnections.isSettled(info, path: path))

        let writer = try LogStore.open(at: url)
        #expect(try writer.buildSearchIndexes() == 1)
        try writer.close()
        (info, path) = try chunk()
        #expect(ChunkConnections.isSettled(info, path: path))
        #expect(try sideFiles().isEmpty)
        let reader = try LogStore.openForReading(at: url)
        let cursor = reader.records(filter: StoreFilter(whereSQL: "process = ?", bindings: [.text("scheduler")]))
        #expect(try cursor.nextRow() != nil)
        #expect(try sideFiles().isEmpty, "an immutable connection creates no -wal or -shm")
        let read = try reader.records(filter: StoreFilter(whereSQL: "process = ?", bindings: [.text("scheduler")])).all()
        #expect(read == records.filter { $0.process == "scheduler" }.sorted { $0.timestamp < $1.timestamp })

        // A WAL holding frames beside it: read the usual way, so that SQLite reads them.
        #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data(repeating: 0, count: 32)))
        #expect(!ChunkConnections.isSettled(info, path: path))
        try FileManager.default.removeItem(atPath: path + "-wal")
        // An empty one left by a reader that closed: settled.
        #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data()))
        #expect(ChunkConnections.isSettled(info, path: path))
    }

    /// A reading connection keeps a page cache of `pageCacheKiB`, not SQLite's 2,000 KiB: a query
    /// holds several, and at the default they were most of a query's memory (57.7 MiB for a
    /// common phrase through diagd at 10M records, 37.2 MiB with 512 KiB). Both kinds of
    /// connection: a settled chunk's (immutable) and one not settled yet (through its WAL).
    @Test func readingConnectionsKeepASmallPageCache() throws {
        let folder = try TemporaryDirectory()
        let (url, _, persist) = try storeWithASealedChunk(in: folder, seed: 11)
        func cacheSize() throws -> Int64? {
            let info = try #require(try LogStore.openForReading(at: url).info.chunks.first { $0.sealed })
            let database = try ChunkConnections.open(chunk: info, path: persist + "/" + info.file, mapping: 0)
            return try database.scalarInt("PRAGMA cache_size")
        }
        #expect(ChunkConnections.pageCacheKiB == 512)
        #expect(try cacheSize() == -512, "not settled: read through its WAL")
        let writer = try LogStore.open(at: url)
        #expect(try writer.buildSearchIndexes() == 1)
        try writer.close()
        #expect(try cacheSize() == -512, "settled: immutable")
    }

    @Test func readersOfAChunkWaitingForItsIndexLeaveItsWALFilesForTheNext() throws {
        let folder = try TemporaryDirectory("waiting chunk")
        let (url, records, persist) = try storeWithASealedChunk(in: folder, seed: 11)
        let info = try #require(try LogStore.openForReading(at: url).info.chunks.first { $0.sealed && $0.recordCount > 0 })
        let path = persist + "/" + info.file
        #expect(!ChunkConnections.isSettled(info, path: path))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        let expected = records.filter { $0.process == "scheduler" }.sorted { $0.timestamp < $1.timestamp }
        func read() throws -> [LogRecord] {
            try LogStore.openForReading(at: url).records(filter: StoreFilter(whereSQL: "process = ?", bindings: [.text("scheduler")])).all()
        }
        func inode(_ file: String) throws -> UInt64? {
            try (FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? NSNumber)?.uint64Value
        }

        // The first reader makes the WAL index, and its close leaves it and the empty WAL.
        #expect(try read() == expected)
        #expect(FileManager.default.fileExists(atPath: path + "-shm"))
        #expect(try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? UInt64 == 0)
        #expect(ChunkConnections.isSettled(info, path: path) == false, "still waiting for its index")
        // The next reader opens the same files instead of making them again.
        let shm = try inode(path + "-shm")
        #expect(try read() == expected)
        #expect(try inode(path + "-shm") == shm)

        // The index build writes the chunk beside them, and its close folds and removes them.
        let writer = try LogStore.open(at: url)
        #expect(try writer.buildSearchIndexes() == 1)
        try writer.close()
        let indexed = try #require(try LogStore.openForReading(at: url).info.chunks.first { $0.file == info.file })
        #expect(ChunkConnections.isSettled(indexed, path: path))
        #expect(try read() == expected)
    }

    @Test func uriPathsEscapeWhatURIsReserve() {
        #expect(Database.uriPath("/a b/c?d#e%f/é") == "/a%20b/c%3Fd%23e%25f/%C3%A9")
        #expect(Database.uriPath("/plain/path.sqlite") == "/plain/path.sqlite")
    }

    /// The chunks read whole go in chains of chunks apart in time: a busy diagd's sealed chunks
    /// one chain, and the chunks that span them (the open one, one with diagd's own records
    /// timed by the clock) and those of unknown range chains of their own.
    @Test func chunksReadWholeFormChainsApartInTime() {
        func chunk(_ sequence: Int64, _ oldest: Int64?, _ newest: Int64?) -> ChunkInfo {
            ChunkInfo(file: "c\(sequence)", sequence: sequence, sealed: true, recordCount: 10, oldestTimestamp: oldest, newestTimestamp: newest)
        }
        let spanning = chunk(1, 100, 10_000)
        let sealed = (2...5).map { chunk($0, Int64($0) * 200, Int64($0) * 200 + 150) }
        let open = chunk(6, 150, 20_000)
        let unknown = chunk(7, nil, nil)
        let chains = RecordCursor.chains(of: [spanning] + sealed + [open, unknown])
        #expect(chains.map { $0.map(\.sequence) } == [[7], [1], [6], [2, 3, 4, 5]])
        // Touching ranges are not apart: a tie in time must go through the merge.
        let touching = RecordCursor.chains(of: [chunk(1, 0, 10), chunk(2, 10, 20), chunk(3, 11, 20)])
        #expect(touching.map { $0.map(\.sequence) } == [[1, 3], [2]])
        #expect(RecordCursor.chains(of: []).isEmpty)
    }
}
