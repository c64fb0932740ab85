import DiagModel
import Foundation
import Glibc
import Testing
import TestSupport
@testable import DiagStore

/// A store the reader cannot write to: on a read-only file system (read-only media, a copy
/// mounted `ro`), SQLite cannot create the `-shm` file it reads a chunk in WAL mode through.
/// Such a chunk without WAL frames is read as it is (nothing can write it there); one with
/// frames to read cannot be, and the error says why. Mounting needs root, as in CI here.
@Suite(.serialized) struct ReadOnlyPlaceTests {
    static let records = (0..<300).map { StoreTestRecords.full($0) }

    /// The write-ahead log mode byte of a SQLite file's header (2: WAL).
    static func journalModeByte(_ path: String) throws -> UInt8 {
        try Data(contentsOf: URL(fileURLWithPath: path))[18]
    }

    @Test(.enabled(if: SmallFileSystem.canMount, "mounting a tmpfs needs root"))
    func aStoreOnAReadOnlyFileSystemReads() throws {
        let place = try #require(SmallFileSystem(bytes: 16 << 20))
        let url = place.file("s.logarchive")
        let store = try LogStore.open(at: url, create: true)
        try store.append(Self.records)
        let chunk = store.chunkPath(store.info.chunks[0].file)
        try store.close()
        // The chunk diagd was writing: not sealed, in WAL mode, its WAL folded in at the close.
        #expect(try LogStore.open(at: url, options: .readOnly).info.chunks.map(\.sealed) == [false])
        #expect(try Self.journalModeByte(chunk) == 2)
        #expect(!FileManager.default.fileExists(atPath: chunk + "-wal"))
        try place.freeze()
        let reader = try LogStore.openForReading(at: url)
        #expect(try reader.records().all().map(\.eventMessage) == Self.records.map(\.eventMessage))
        try reader.close()
    }

    @Test(.enabled(if: SmallFileSystem.canMount, "mounting a tmpfs needs root"))
    func aChunkWithWALFramesOnAReadOnlyFileSystemSaysWhy() throws {
        let place = try #require(SmallFileSystem(bytes: 16 << 20))
        let url = place.file("s.logarchive")
        let chunk = try copyStoreWithWALFrames(Self.records, to: url)
        #expect(try Data(contentsOf: URL(fileURLWithPath: chunk + "-wal")).count > 0)
        try place.freeze()
        let error = #expect(throws: StoreError.self) { try LogStore.openForReading(at: url).records().all() }
        #expect(error?.path == chunk)
        for part in ["WAL mode", "-shm", "is not writable here (Read-only file system)", "from a copy you own"] {
            #expect(error?.reason.contains(part) == true, "\(part): \(String(describing: error))")
        }
    }
}
