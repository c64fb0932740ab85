@testable import DiagStore
import Foundation
import Testing
import TestSupport

/// The byte copy of a snapshot is taken only when SQLite keeps the file still; otherwise the
/// backup API copies it, with the same result either way.
struct QuiescentFileCopyTests {
    /// A database of `rows` rows; the writer connection stays open so its WAL stays as left.
    private func makeDatabase(_ path: String, journal: String, rows: Int, checkpoint: Bool) throws -> Database {
        let writer = try Database(path: path)
        _ = try writer.scalarText("PRAGMA journal_mode = \(journal)")
        try writer.execute("PRAGMA wal_autocheckpoint = 0; CREATE TABLE records (id INTEGER PRIMARY KEY, message TEXT NOT NULL)")
        for start in stride(from: 0, to: rows, by: 500) {
            try writer.execute("BEGIN")
            for index in start..<min(start + 500, rows) {
                try writer.execute("INSERT INTO records (message) VALUES (?)", ["message \(index) " + String(repeating: "x", count: index % 200)])
            }
            try writer.execute("COMMIT")
        }
        if checkpoint, journal == "WAL" { try writer.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        return writer
    }

    private func rows(_ path: String) throws -> (count: Int64?, integrity: String?, mode: String?) {
        let copy = try Database(path: path, options: .init(readOnly: true))
        return (try copy.scalarInt("SELECT count(*) FROM records"), try copy.scalarText("PRAGMA integrity_check"),
                try copy.scalarText("PRAGMA journal_mode"))
    }

    @Test func aWALDatabaseWithAnEmptyWALIsCopiedByteForByte() throws {
        let folder = try TemporaryDirectory()
        let writer = try makeDatabase(folder.file("source.sqlite").path, journal: "WAL", rows: 3_000, checkpoint: true)
        let source = try SQLiteSnapshot.openSource(folder.file("source.sqlite").path)
        #expect(try QuiescentFileCopy.copy(source, to: folder.file("copy.sqlite").path))
        // A write after the copy does not reach it.
        try writer.execute("INSERT INTO records (message) VALUES ('later')")
        let copied = try Data(contentsOf: folder.file("copy.sqlite"))
        #expect(copied.count > 4096)
        try SQLiteSnapshot.copy(try SQLiteSnapshot.openSource(folder.file("source.sqlite").path), to: folder.file("final.sqlite").path)
        let result = try rows(folder.file("copy.sqlite").path)
        #expect(result.count == 3_000 && result.integrity == "ok")
        let final = try rows(folder.file("final.sqlite").path)
        #expect(final.count == 3_001 && final.integrity == "ok" && final.mode == "delete")
    }

    @Test func framesInTheWALLeaveTheCopyToTheBackupAPI() throws {
        let folder = try TemporaryDirectory()
        let writer = try makeDatabase(folder.file("source.sqlite").path, journal: "WAL", rows: 2_000, checkpoint: false)
        let source = try SQLiteSnapshot.openSource(folder.file("source.sqlite").path)
        #expect(try !QuiescentFileCopy.copy(source, to: folder.file("copy.sqlite").path))
        #expect(!FileManager.default.fileExists(atPath: folder.file("copy.sqlite").path))
        try SQLiteSnapshot.copy(source, to: folder.file("copy.sqlite").path)
        let result = try rows(folder.file("copy.sqlite").path)
        #expect(result.count == 2_000 && result.integrity == "ok" && result.mode == "delete")
        _ = writer
    }

    @Test func aWALDatabaseItsWriterClosedIsCopiedUnderTheReadersOwnWAL() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("source.sqlite").path
        do { _ = try makeDatabase(path, journal: "WAL", rows: 800, checkpoint: true) }  // closed: SQLite removes the WAL
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        // The reader opens an empty WAL and a -shm of its own, where a later writer takes its locks.
        let source = try SQLiteSnapshot.openSource(path)
        #expect(FileManager.default.fileExists(atPath: path + "-shm"))
        #expect(try QuiescentFileCopy.copy(source, to: folder.file("copy.sqlite").path))
        let result = try rows(folder.file("copy.sqlite").path)
        #expect(result.count == 800 && result.integrity == "ok")
    }

    @Test func aRollbackJournalDatabaseIsCopiedByteForByte() throws {
        let folder = try TemporaryDirectory()
        _ = try makeDatabase(folder.file("source.sqlite").path, journal: "DELETE", rows: 1_500, checkpoint: false)
        let source = try SQLiteSnapshot.openSource(folder.file("source.sqlite").path)
        #expect(try QuiescentFileCopy.copy(source, to: folder.file("copy.sqlite").path))
        #expect(try Data(contentsOf: folder.file("copy.sqlite")) == Data(contentsOf: folder.file("source.sqlite")))
        let result = try rows(folder.file("copy.sqlite").path)
        #expect(result.count == 1_500 && result.integrity == "ok")
    }

    @Test func aFileReplacedSinceItWasOpenedIsNotCopiedByteForByte() throws {
        let folder = try TemporaryDirectory()
        _ = try makeDatabase(folder.file("source.sqlite").path, journal: "DELETE", rows: 100, checkpoint: false)
        _ = try makeDatabase(folder.file("other.sqlite").path, journal: "DELETE", rows: 7, checkpoint: false)
        let source = try SQLiteSnapshot.openSource(folder.file("source.sqlite").path)
        #expect(rename(folder.file("other.sqlite").path, folder.file("source.sqlite").path) == 0)
        #expect(try !QuiescentFileCopy.copy(source, to: folder.file("copy.sqlite").path))
        try SQLiteSnapshot.copy(source, to: folder.file("copy.sqlite").path)
        #expect(try rows(folder.file("copy.sqlite").path).count == 100)
    }

    /// The copy reads through the connection's own file handle: a descriptor of its own, once
    /// closed, would drop every POSIX lock this process holds on the file, and another process
    /// that then finds the file unused may switch it out of WAL mode and remove the -wal and
    /// -shm under this process's open connections (sqlite.org/howtocorrupt.html, §2.2).
    @Test func theCopyLeavesThisProcessItsLocksOnTheFile() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("source.sqlite").path
        do { _ = try makeDatabase(path, journal: "WAL", rows: 600, checkpoint: true) }
        let source = try SQLiteSnapshot.openSource(path)
        #expect(try QuiescentFileCopy.copy(source, to: folder.file("copy.sqlite").path))
        let streamed = try QuiescentFileCopy.withQuiescentFile(source) { file, size in
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(size), alignment: 8)
            defer { buffer.deallocate() }
            try file.read(into: buffer, at: 0)
            #expect(buffer.load(fromByteOffset: 0, as: UInt8.self) == UInt8(ascii: "S"))
        }
        #expect(streamed)
        // Another process finds the file in use: its switch to a rollback journal is refused.
        let other = try run("/usr/bin/sqlite3", ["-cmd", ".timeout 0", path, "PRAGMA journal_mode = DELETE"])
        #expect(!other.stdout.contains("delete"), "\(other.stdout) \(other.stderr)")
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(try source.database.scalarText("PRAGMA journal_mode") == "wal")
        #expect(try source.database.scalarInt("SELECT count(*) FROM records") == 600)
    }

    @Test func readingPastTheEndOfTheFileIsAnError() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("source.sqlite").path
        do { _ = try makeDatabase(path, journal: "DELETE", rows: 10, checkpoint: false) }
        let database = try Database(path: path, options: .init(readOnly: true))
        _ = try database.scalarInt("SELECT count(*) FROM records")
        let file = try database.mainFile()
        let size = try file.size()
        #expect(size > 0 && size % 4096 == 0)
        #expect(try !file.hasMoved())
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
        defer { buffer.deallocate() }
        #expect(throws: SQLiteError.self) { try file.read(into: buffer, at: size - 100) }
        #expect(rename(path, folder.file("moved.sqlite").path) == 0)
        #expect(try file.hasMoved())
    }
}
