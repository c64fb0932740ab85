import Foundation
import Testing
import TestSupport

/// `diag collect` onto a file system that fills while the archive is written: the error names
/// the archive and says why in the system's words (libarchive alone says "Write error"), and no
/// partial archive is left. Mounting needs root, as in CI here.
@Suite(.serialized) struct CollectFullDiskTests {
    @Test(.enabled(if: SmallFileSystem.canMount, "mounting a tmpfs needs root"))
    func aCollectThatFillsItsDiskSaysSoAndLeavesNothing() throws {
        let folder = try TemporaryDirectory("diag-collect-full")
        let records = folder.file("records.ndjson").path
        let store = folder.file("store").path
        #expect(try diag(["generate", "--count", "20000", "--output", records], cacheIn: folder).status == 0)
        let imported = try diag(["import", "--store", store, records], cacheIn: folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        // The store is some 11 MB: a gzip of it does not fit in 2 MiB.
        let disk = try #require(SmallFileSystem(bytes: 2 << 20))
        let collected = try diag(["collect", "--store", store, "--output", disk.path + "/"], cacheIn: folder)
        #expect(collected.status == 1)
        #expect(collected.stderr.contains("into \(disk.path)/diagnose_"), "\(collected.stderr)")
        #expect(collected.stderr.contains("(No space left on device)"), "\(collected.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).isEmpty)
    }
}
