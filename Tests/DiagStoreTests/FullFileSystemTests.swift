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
        let reader = try LogStore.openForReading(at: url)
        let counts = try reader.allGroupedCounts()
        #expect(counts[.process]?.reduce(0) { $0 + $1.count } == 300)
        #expect(try reader.count() == 300)
        #expect(try reader.records().all().count == 300)
        try reader.close()
    }

    @Test(.enabled(if: SmallFileSystem.canMount, "mounting a tmpfs needs root"))
    func aChunkThatNeedsAShmOnAFullFileSystemSaysWhy() throws {
        let place = try #require(SmallFileSystem(bytes: 4 << 20))
        // The chunk a writer left open: in WAL mode, so a reader creates its -shm, where no room is left.
        let (url, chunk) = try Self.storeOf300Records(on: place, settled: false)
        let error = #expect(throws: StoreError.self) { try LogStore.openForReading(at: url).count() }
        #expect(error?.path == chunk)
        for part in ["is full (0 bytes free to this user)", "create or grow the -shm file beside this chunk", "Free some space there"] {
            #expect(error?.reason.contains(part) == true, "\(part): \(String(describing: error))")
        }
    }
}
