import DiagModel
import Foundation
import Glibc
import Testing
import TestSupport
@testable import DiagStore

/// A store on a full file system: a write that finds no space is refused with an error that
/// says so (SQLite's own says "database or disk is full", or "disk I/O error" for the `-shm`
/// it reads a WAL-mode chunk through), what was stored before stays readable, and the chunks
/// that need no `-shm` (settled ones) are read by every reader. Mounting needs root, as in CI.
@Suite(.serialized) struct FullFileSystemTests {
    static func records(_ range: Range<Int>) -> [LogRecord] { range.map { StoreTestRecords.full($0) } }

    /// The store at `url` read, counted and grouped: the 300 records of `storeOf300Records`.
    static func expect300Records(at url: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reader = try LogStore.openForReading(at: url)
        #expect(try reader.records().all().map(\.eventMessage) == records(0..<300).map(\.eventMessage), sourceLocation: sourceLocation)
        #expect(try reader.count() == 300, sourceLocation: sourceLocation)
        #expect(try reader.allGroupedCounts()[.process]?.reduce(0) { $0 + $1.count } == 300, sourceLocation: sourceLocation)
        try reader.close()
    }

    /// A store of 300 records on `place`, its writer closed (no `-shm` left), then `place` filled;
    /// `settled` seals its chunk and builds the chunk's search index first.
    static func storeOf300Records(on place: SmallFileSystem, settled: Bool) throws -> (url: URL, chunk: String) {
        let url = place.file("s.logarchive")
        let store = try LogStore.open(at: url, create: true)
        try store.append(records(0..<300))
        if settled {
            try store.rotate()
            #expect(try store.buildSearchIndexes() == 1)
        }
        let chunk = store.chunkPath(store.info.chunks[0].file)
        try store.close()
        #expect(!FileManager.default.fileExists(atPath: chunk + "-shm"))
        try place.fill()
        return (url, chunk)
    }

    @Test(.enabled(if: SmallFileSystem.canMount, "mounting a tmpfs needs root"))
    func aWriteThatFindsNoSpaceSaysTheFileSystemIsFullAndKeepsWhatWasStored() throws {
        let place = try #require(SmallFileSystem(bytes: 4 << 20))
        let url = place.file("s.logarchive")
        let store = try LogStore.open(at: url, create: true)
        var stored = 0
        var failure: StoreError?
        // Batches of 500 until one finds no room: 4 MiB holds a few thousand of these records.
        for batch in 0..<200 {
            do {
                try store.append(Self.records(batch * 500..<(batch + 1) * 500))
                stored += 500
            } catch let error as StoreError {
                failure = error
                break
            }
        }
        let error = try #require(failure, "4 MiB never filled")
        #expect(stored > 0)
        #expect(error.path.hasSuffix(".chunk.sqlite"))
        for part in ["the file system holding \(url.path)/Persist is full", "could not write to this chunk", "database or disk is full",
                     "Free some space there"] {
            #expect(error.reason.contains(part), "\(part): \(error)")
        }
        try? store.close()
        // Every batch that was acknowledged is there, in order, and nothing else.
        let reader = try LogStore.openForReading(at: url)
        #expect(try reader.records().all().map(\.eventMessage) == Self.records(0..<stored).map(\.eventMessage))
        try reader.close()
    }

    @Test(.enabled(if: SmallFileSystem.canMount, "mounting a tmpfs needs root"))
    func aSettledChunkIsCountedOnAFullFileSystem() throws {
        let place = try #require(SmallFileSystem(bytes: 4 << 20))
        let (url, _) = try Self.storeOf300Records(on: place, settled: true)
        // `diag stats` counts through `allGroupedCounts`: it failed here with "disk I/O error"
        // (SQLITE_IOERR_SHMSIZE) when it opened the settled chunk the way of a chunk being written.
        try Self.expect300Records(at: url)
    }

    /// A closed chunk waiting for its search index (a full disk keeps diagd from building it),
    /// or the chunk a writer left open: in WAL mode, with no -shm beside it once its writer
    /// closed, and none can be made. It failed with "disk I/O error"; it is read with a WAL index
    /// in memory, under an exclusive lock.
    @Test(.enabled(if: SmallFileSystem.canMount, "mounting a tmpfs needs root"))
    func aChunkInWALModeWithoutItsShmIsReadOnAFullFileSystem() throws {
        let place = try #require(SmallFileSystem(bytes: 4 << 20))
        let (url, chunk) = try Self.storeOf300Records(on: place, settled: false)
        try Self.expect300Records(at: url)
        // The exclusive lock goes with the reader's connections: another can take it at once.
        let next = try Database.openWithPrivateWALIndex(path: chunk, busyTimeoutMilliseconds: 0)
        #expect(try next.scalarInt("SELECT count(*) FROM records") == 300)
    }

    /// `diag collect` of such a store, and of the empty chunk file diagd leaves when the disk
    /// filled as it opened a new chunk: the snapshot reads the one and skips the other (it failed
    /// with "disk I/O error", then with "no such table: records").
    @Test(.enabled(if: SmallFileSystem.canMount, "mounting a tmpfs needs root"))
    func aStoreOnAFullFileSystemIsSnapshotted() throws {
        let place = try #require(SmallFileSystem(bytes: 4 << 20))
        let url = place.file("s.logarchive")
        let store = try LogStore.open(at: url, create: true)
        try store.append(Self.records(0..<300))
        try store.close()
        let empty = url.appendingPathComponent("Persist/" + StoreLayout.chunkFileName(sequence: 2)).path
        #expect(FileManager.default.createFile(atPath: empty, contents: nil))
        try place.fill()
        let scratch = try TemporaryDirectory()
        let copy = scratch.file("copy.logarchive")
        var info = try LogStore.snapshot(of: url, to: copy) { _ in }
        #expect(info.chunks.map(\.file) == [StoreLayout.chunkFileName(sequence: 1)])
        info.chunks[0].recordCount = 300
        info.recomputeTotals()
        try info.save(to: StoreLayout.infoURL(copy))
        try Self.expect300Records(at: copy)
    }

    /// A chunk with WAL frames and no -shm (copied so, or left by a killed writer) cannot be read
    /// that way (closing it would fold the frames into the file), and the error says why.
    @Test(.enabled(if: SmallFileSystem.canMount, "mounting a tmpfs needs root"))
    func aChunkWithWALFramesThatNeedsAShmOnAFullFileSystemSaysWhy() throws {
        let place = try #require(SmallFileSystem(bytes: 4 << 20))
        let url = place.file("s.logarchive")
        let chunk = try copyStoreWithWALFrames(Self.records(0..<300), to: url)
        #expect(try Data(contentsOf: URL(fileURLWithPath: chunk + "-wal")).count > 0)
        try place.fill()
        let error = #expect(throws: StoreError.self) { try LogStore.openForReading(at: url).count() }
        #expect(error?.path == chunk)
        for part in ["is full (0 bytes free to this user)", "create or grow the -shm file beside this chunk", "Free some space there"] {
            #expect(error?.reason.contains(part) == true, "\(part): \(String(describing: error))")
        }
    }
}
