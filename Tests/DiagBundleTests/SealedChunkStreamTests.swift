@testable import DiagBundle
import DiagStore
import Foundation
import Testing
import TestSupport

/// A sealed chunk goes from the live store's file straight into the archive: the entry is the
/// state when its read transaction began, in rollback-journal mode, whatever writers, checkpoints
/// and expiry do meanwhile.
struct SealedChunkStreamTests {
    /// A WAL database of `rows` rows, checkpointed so its WAL is empty, with its writer still open.
    private func makeSealedDatabase(_ path: String, rows: Int) throws -> Database {
        let writer = try Database(path: path)
        _ = try writer.scalarText("PRAGMA journal_mode = WAL")
        try writer.execute("PRAGMA wal_autocheckpoint = 0; CREATE TABLE records (id INTEGER PRIMARY KEY, message TEXT NOT NULL)")
        try writer.execute("BEGIN")
        for index in 0..<rows {
            try writer.execute("INSERT INTO records (message) VALUES (?)", ["message \(index) " + String(repeating: "y", count: index % 300)])
        }
        try writer.execute("COMMIT")
        try writer.execute("CREATE INDEX records_message ON records(message); PRAGMA wal_checkpoint(TRUNCATE)")
        return writer
    }

    private func pin(_ path: String) throws -> SealedChunk {
        let stream = try SQLiteSnapshot.openSource(path)
        let reader = try SQLiteSnapshot.openSource(path).database
        return SealedChunk(file: URL(fileURLWithPath: path).lastPathComponent, stream: stream, reader: reader)
    }

    /// Archives `chunk` alone (no compression), extracts it with the system tar, and returns the
    /// extracted file with the digest the writer computed.
    private func archiveAndExtract(_ chunk: SealedChunk, in folder: TemporaryDirectory) throws -> (path: String, digest: BundleFileDigest?) {
        let archive = folder.file("chunk.tar")
        var digest: BundleFileDigest?
        try makeArchive(archive, compression: .none) { writer in
            digest = try chunk.archive(into: writer, entry: "top/chunk.sqlite")
        }
        let extracted = folder.file("extracted")
        try FileManager.default.createDirectory(at: extracted, withIntermediateDirectories: true)
        let untar = try run("/usr/bin/tar", ["-xf", archive.path, "-C", extracted.path])
        #expect(untar.status == 0, "\(untar.stderr)")
        return (extracted.appendingPathComponent("top/chunk.sqlite").path, digest)
    }

    private func facts(_ path: String) throws -> (rows: Int64?, integrity: String?, mode: String?) {
        let database = try Database(path: path, options: .init(readOnly: true))
        return (try database.scalarInt("SELECT count(*) FROM records"), try database.scalarText("PRAGMA integrity_check"),
                try database.scalarText("PRAGMA journal_mode"))
    }

    @Test func aSealedChunkIsArchivedInRollbackModeWithTheDigestOfItsBytes() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("0000000000000001.chunk.sqlite").path
        let writer = try makeSealedDatabase(path, rows: 4_000)
        let (copy, digest) = try archiveAndExtract(try pin(path), in: folder)
        let written = try #require(digest)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: copy))
        var hasher = SHA256()
        bytes.withUnsafeBytes { hasher.update($0) }
        #expect(written.sha256 == hasher.hexDigest() && written.size == Int64(bytes.count))
        #expect(bytes[18] == 1 && bytes[19] == 1)
        // The source is untouched: still WAL.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path))[18] == 2)
        let result = try facts(copy)
        #expect(result.rows == 4_000 && result.integrity == "ok" && result.mode == "delete")
        #expect(!FileManager.default.fileExists(atPath: copy + "-wal"))
        _ = writer
    }

    @Test func rowsWrittenAndCheckpointsTriedDuringTheStreamStayOutOfIt() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("0000000000000002.chunk.sqlite").path
        let writer = try makeSealedDatabase(path, rows: 2_500)
        let chunk = try pin(path)
        let archive = folder.file("chunk.tar")
        var checkpoint: String?
        try makeArchive(archive, compression: .none) { archiveWriter in
            let streamed = try QuiescentFileCopy.withQuiescentFile(chunk.stream) { file, size in
                // Another connection writes and tries to fold its WAL into the file meanwhile.
                try writer.execute("BEGIN")
                for index in 0..<1_000 { try writer.execute("INSERT INTO records (message) VALUES (?)", ["later \(index)"]) }
                try writer.execute("COMMIT")
                checkpoint = try writer.scalarText("PRAGMA wal_checkpoint(TRUNCATE)")
                try archiveWriter.addFile("top/chunk.sqlite", from: file, size: size, adjust: SealedChunk.useRollbackJournal)
            }
            #expect(streamed)
        }
        // The checkpoint could not write into the file (busy), so the file kept the old state.
        #expect(checkpoint == "1")
        let extracted = folder.file("extracted")
        try FileManager.default.createDirectory(at: extracted, withIntermediateDirectories: true)
        #expect(try run("/usr/bin/tar", ["-xf", archive.path, "-C", extracted.path]).status == 0)
        let result = try facts(extracted.appendingPathComponent("top/chunk.sqlite").path)
        #expect(result.rows == 2_500 && result.integrity == "ok" && result.mode == "delete")
        #expect(try writer.scalarInt("SELECT count(*) FROM records") == 3_500)
    }

    @Test func aChunkExpiredWhileItIsStreamedIsArchivedWhole() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("0000000000000003.chunk.sqlite").path
        do { _ = try makeSealedDatabase(path, rows: 3_000) }
        let chunk = try pin(path)
        let archive = folder.file("chunk.tar")
        try makeArchive(archive, compression: .none) { archiveWriter in
            let streamed = try QuiescentFileCopy.withQuiescentFile(chunk.stream) { file, size in
                for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
                try archiveWriter.addFile("top/chunk.sqlite", from: file, size: size, adjust: SealedChunk.useRollbackJournal)
            }
            #expect(streamed)
        }
        let extracted = folder.file("extracted")
        try FileManager.default.createDirectory(at: extracted, withIntermediateDirectories: true)
        #expect(try run("/usr/bin/tar", ["-xf", archive.path, "-C", extracted.path]).status == 0)
        let result = try facts(extracted.appendingPathComponent("top/chunk.sqlite").path)
        #expect(result.rows == 3_000 && result.integrity == "ok")
        // The summaries' connection still reads every record of the deleted file.
        #expect(try chunk.reader.scalarInt("SELECT count(*) FROM records") == 3_000)
    }

    @Test func aChunkExpiredBeforeItsTurnIsCopiedThroughItsOpenConnection() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("0000000000000004.chunk.sqlite").path
        do { _ = try makeSealedDatabase(path, rows: 1_200) }
        let chunk = try pin(path)
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        // Nothing is written when the file is gone: the collector copies it instead.
        var wrote = true
        try makeArchive(folder.file("chunk.tar"), compression: .none) { writer in
            wrote = try chunk.archive(into: writer, entry: "top/chunk.sqlite") != nil
        }
        #expect(!wrote)
        try SQLiteSnapshot.copy(chunk.stream, to: folder.file("copy.sqlite").path)
        let result = try facts(folder.file("copy.sqlite").path)
        #expect(result.rows == 1_200 && result.integrity == "ok" && result.mode == "delete")
    }

    @Test func theHeaderRewriteTouchesOnlyTheVersionBytesWhereverTheBufferStarts() {
        var header = [UInt8](repeating: 2, count: 40)
        header.withUnsafeMutableBytes { bytes in
            SealedChunk.useRollbackJournal(UnsafeMutableRawBufferPointer(rebasing: bytes[0..<19]), at: 0)
            SealedChunk.useRollbackJournal(UnsafeMutableRawBufferPointer(rebasing: bytes[19..<40]), at: 19)
        }
        #expect(header[18] == 1 && header[19] == 1)
        #expect(header.enumerated().allSatisfy { $0.offset == 18 || $0.offset == 19 || $0.element == 2 })
        // Past the header nothing changes.
        var later = [UInt8](repeating: 2, count: 64)
        later.withUnsafeMutableBytes { SealedChunk.useRollbackJournal($0, at: 4096) }
        #expect(later.allSatisfy { $0 == 2 })
    }
}
