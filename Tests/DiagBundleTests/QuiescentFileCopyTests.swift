@testable import DiagBundle
import DiagStore
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
}
