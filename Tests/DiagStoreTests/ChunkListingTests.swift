import Foundation
import Testing
import TestSupport
@testable import DiagStore

/// `LogStore.listChunkFiles`: the chunk files' names under `Persist/` and `Persist/Burst/`, each
/// once and sorted; side files, strays and names that only look like a chunk's are left out.
@Suite struct ChunkListingTests {
    @Test func listsEachChunkOnceFromBothFolders() throws {
        let folder = try TemporaryDirectory()
        let persist = folder.file("Persist")
        let burst = persist.appendingPathComponent(StoreLayout.burstFolder, isDirectory: true)
        try FileManager.default.createDirectory(at: burst, withIntermediateDirectories: true)
        for name in ["0000000000000002.chunk.sqlite", "0000000000000002.chunk.sqlite-wal", "0000000000000002.chunk.sqlite-shm",
                     "0000000000000001.chunk.sqlite", "0000000000000001.chunk.sqlite-journal", "notes.txt", "abc.chunk.sqlite",
                     ".chunk.sqlite", "0000000000000009.chunk.sqlite.sealing", "0000000000000003.chunk.sqlitex", "١٢.chunk.sqlite"] {
            try Data().write(to: persist.appendingPathComponent(name))
        }
        // A chunk in both folders (a seal cut short after its copy took the name) and one in
        // the burst folder alone.
        for name in ["0000000000000002.chunk.sqlite", "0000000000000004.chunk.sqlite", "0000000000000004.chunk.sqlite-wal"] {
            try Data().write(to: burst.appendingPathComponent(name))
        }
        #expect(try LogStore.listChunkFiles(in: persist) == [
            "0000000000000001.chunk.sqlite", "0000000000000002.chunk.sqlite", "0000000000000004.chunk.sqlite",
        ])
    }

    @Test func noFolderIsNoChunk() throws {
        let folder = try TemporaryDirectory()
        #expect(try LogStore.listChunkFiles(in: folder.file("Persist")) == [])
    }

    /// `Persist` that is a file, not a folder: an error naming it, as before.
    @Test func aFileWhereTheFolderBelongsIsAnError() throws {
        let folder = try TemporaryDirectory()
        try Data("x".utf8).write(to: folder.file("Persist"))
        let error = try #require(throws: StoreError.self) { try LogStore.listChunkFiles(in: folder.file("Persist")) }
        #expect("\(error)".contains("Persist"), "\(error)")
        #expect("\(error)".contains("cannot list chunk files"), "\(error)")
    }
}
