import Foundation
import Testing
import TestSupport

/// `diag import` into a store whose file system fills part way: the error says the file system
/// is full (not only SQLite's "database or disk is full"), and how many records the store keeps,
/// since importing the file again would store those twice. Mounting needs root, as in CI.
@Suite(.serialized) struct ImportFullFileSystemTests {
    @Test(.enabled(if: SmallFileSystem.canMount, "mounting a tmpfs needs root"))
    func anImportThatFillsTheFileSystemSaysSoAndWhatTheStoreKeeps() throws {
        let folder = try TemporaryDirectory("diag-import-full")
        let source = folder.file("records.ndjson").path
        let generated = try diag(["generate", "--count", "30000", "--output", source])
        #expect(generated.status == 0, "stderr: \(generated.stderr)")
        let place = try #require(SmallFileSystem(bytes: 8 << 20))
        let store = place.path + "/store"
        let imported = try diag(["import", "--store", store, source])
        #expect(imported.status == 1)
        #expect(imported.stdout.isEmpty)
        for part in ["the file system holding \(store)/Persist is full", "database or disk is full", "Free some space there",
                     "importing \(source) again would store its first "] {
            #expect(imported.stderr.contains(part), "\(part): \(imported.stderr)")
        }
        // The count it gives is what a reader finds there.
        let kept = try #require(imported.stderr.firstMatch(of: /The store keeps the (\d+) records this import stored/)).1
        #expect(Int(kept).map { $0 > 0 && $0 < 30000 } == true)
        let shown = try diag(["show", "--style", "ndjson", "--info", "--debug", store])
        #expect(shown.status == 0, "stderr: \(shown.stderr)")
        #expect(shown.stdout.split(separator: "\n").count == Int(kept))
    }
}
