import Foundation
import Testing
import TestSupport

/// An unpacked bundle folder holds files and folders only (issue 13, item 12), and its chunks
/// are checked as an archive's are.
struct BundleFolderTests {
    /// The archive unpacked with `tar`, as a receiver would.
    func unpacked(_ archive: URL, in folder: TemporaryDirectory) throws -> URL {
        let target = folder.file("unpacked")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let result = try run("/usr/bin/tar", ["-xzf", archive.path, "-C", target.path])
        #expect(result.status == 0, "\(result.stderr)")
        return target
    }

    @Test(arguments: ["show", "verify"])
    func aFIFOInAnUnpackedBundleIsRefusedNotWaitedOn(command: String) throws {
        let folder = try TemporaryDirectory("diag-folder")
        let archive = try makeBundle(in: folder, chunkSQL: "\(currentRecordsTable); PRAGMA user_version = 2;")
        let target = try unpacked(archive, in: folder)
        let chunk = target.appendingPathComponent("diagnose_hostile/system_logs.logarchive/Persist/0000000000000001.chunk.sqlite")
        try FileManager.default.removeItem(at: chunk)
        #expect(mkfifo(chunk.path, 0o644) == 0)
        // `timeout` ends the run that would otherwise wait forever on the FIFO (before the fix).
        let result = try run("/usr/bin/timeout", ["20", BuiltProducts.path("diag"), command, target.path],
                             environment: ["XDG_CACHE_HOME": folder.file("cache").path])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("0000000000000001.chunk.sqlite: it is a FIFO; a bundle holds only files and folders"), "\(result.stderr)")
    }

    @Test func aHostileChunkInAnUnpackedBundleIsRefusedToo() throws {
        let folder = try TemporaryDirectory("diag-folder")
        let archive = try makeBundle(in: folder, chunkSQL: """
            \(currentRecordsTable);
            CREATE TRIGGER planted AFTER INSERT ON records BEGIN DELETE FROM records; END;
            PRAGMA user_version = 2;
            """)
        let target = try unpacked(archive, in: folder)
        let shown = try diag(["show", target.path], cacheIn: folder)
        #expect(shown.status == 65, "\(shown.stderr)")
        #expect(shown.stderr.contains("trigger 'planted'"), "\(shown.stderr)")
        let verified = try diag(["verify", target.path], cacheIn: folder)
        #expect(verified.status == 65)
        #expect(verified.stderr.contains("trigger 'planted'"), "\(verified.stderr)")
    }
}
