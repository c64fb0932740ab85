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
        let scratch = try TemporaryDirectory()
        let store = try LogStore.open(at: scratch.file("s.logarchive"), create: true)
        try store.append(Self.records)
        // Copied while the writer still has its WAL (as a copy of a live store, or of one whose
        // writer was killed, has it).
        let file = store.info.chunks[0].file
        let source = store.chunkPath(file)
        let url = place.file("s.logarchive")
        try FileManager.default.createDirectory(at: url.appendingPathComponent("Persist"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: scratch.file("s.logarchive/Info.json"), to: url.appendingPathComponent("Info.json"))
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: url.path + "/Persist/" + file + suffix)
        }
        try store.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: url.path + "/Persist/" + file + "-wal")).count > 0)
        try place.freeze()
        let error = #expect(throws: StoreError.self) { try LogStore.openForReading(at: url).records().all() }
        #expect(error?.path == url.path + "/Persist/" + file)
        for part in ["WAL mode", "-shm", "is not writable here (Read-only file system)", "from a copy you own"] {
            #expect(error?.reason.contains(part) == true, "\(part): \(String(describing: error))")
        }
    }
}
