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
    /// A small tmpfs on a temporary folder, unmounted at the end.
    final class Place {
        let folder: TemporaryDirectory

        init?() {
            guard getuid() == 0, let folder = try? TemporaryDirectory("full-place"),
                  mount("tmpfs", folder.path, "tmpfs", 0, "size=4m") == 0 else { return nil }
            self.folder = folder
        }

        static var available: Bool { Place() != nil }

        /// Writes a file of zeros until the file system has no room left.
        func fill() throws {
            let descriptor = open(folder.path + "/filler", O_WRONLY | O_CREAT, 0o644)
            guard descriptor >= 0 else { throw StoreError(.io, path: folder.path, reason: "cannot create the filler") }
            defer { close(descriptor) }
            let block = [UInt8](repeating: 0, count: 4096)
            while block.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
            var info = statvfs()
            guard statvfs(folder.path, &info) == 0, info.f_bavail == 0 else {
                throw StoreError(.io, path: folder.path, reason: "the file system did not fill")
            }
        }

        deinit { umount2(folder.path, Int32(MNT_DETACH)) }
    }

    static func records(_ range: Range<Int>) -> [LogRecord] { range.map { StoreTestRecords.full($0) } }

    @Test(.enabled(if: Place.available, "mounting a tmpfs needs root"))
    func aWriteThatFindsNoSpaceSaysTheFileSystemIsFullAndKeepsWhatWasStored() throws {
        let place = try #require(Place())
        let url = place.folder.file("s.logarchive")
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

    @Test(.enabled(if: Place.available, "mounting a tmpfs needs root"))
    func aSettledChunkIsCountedOnAFullFileSystem() throws {
        let place = try #require(Place())
        let url = place.folder.file("s.logarchive")
        let store = try LogStore.open(at: url, create: true)
        try store.append(Self.records(0..<300))
        try store.rotate()
        #expect(try store.buildSearchIndexes() == 1)
        let chunk = store.chunkPath(store.info.chunks[0].file)
        try store.close()
        #expect(!FileManager.default.fileExists(atPath: chunk + "-shm"))
        try place.fill()
        // `diag stats` counts through `allGroupedCounts`: it failed here with "disk I/O error"
        // (SQLITE_IOERR_SHMSIZE) when it opened the settled chunk the way of a chunk being written.
        let reader = try LogStore.openForReading(at: url)
        let counts = try reader.allGroupedCounts()
        #expect(counts[.process]?.reduce(0) { $0 + $1.count } == 300)
        #expect(try reader.count() == 300)
        #expect(try reader.records().all().count == 300)
        try reader.close()
    }

    @Test(.enabled(if: Place.available, "mounting a tmpfs needs root"))
    func aChunkThatNeedsAShmOnAFullFileSystemSaysWhy() throws {
        let place = try #require(Place())
        let url = place.folder.file("s.logarchive")
        let store = try LogStore.open(at: url, create: true)
        try store.append(Self.records(0..<300))
        let chunk = store.chunkPath(store.info.chunks[0].file)
        try store.close()
        // The chunk a writer left open: in WAL mode, so a reader creates its -shm, where none is left.
        #expect(!FileManager.default.fileExists(atPath: chunk + "-shm"))
        try place.fill()
        let error = #expect(throws: StoreError.self) { try LogStore.openForReading(at: url).count() }
        #expect(error?.path == chunk)
        for part in ["is full (0 bytes free to this user)", "create or grow the -shm file beside this chunk", "Free some space there"] {
            #expect(error?.reason.contains(part) == true, "\(part): \(String(describing: error))")
        }
    }
}
