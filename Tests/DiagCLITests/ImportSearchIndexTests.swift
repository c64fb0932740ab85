import DiagStore
import Foundation
import Testing
import TestSupport

/// `diag import` leaves every chunk it wrote sealed and with its message search index, and the
/// index answers what a scan of the imported file answers.
struct ImportSearchIndexTests {
    @Test func importLeavesEveryChunkIndexed() throws {
        let folder = try TemporaryDirectory("diag-import-index")
        let input = folder.file("records.ndjson").path
        let generated = try run(BuiltProducts.path("diag"), ["generate", "--count", "20000", "--output", input])
        #expect(generated.status == 0, "\(generated.stderr)")
        let store = folder.file("store").path
        let imported = try run(BuiltProducts.path("diag"), ["import", "--store", store, input])
        #expect(imported.status == 0, "\(imported.stderr)")

        let chunks = try LogStore.open(at: URL(fileURLWithPath: store), options: .readOnly).info.chunks
        #expect(!chunks.isEmpty)
        for chunk in chunks {
            #expect(chunk.sealed && chunk.searchIndex, "\(chunk.file): sealed \(chunk.sealed), search index \(chunk.searchIndex)")
        }
        let status = try run(BuiltProducts.path("diag"), ["index", "--status", "--store", store])
        #expect(status.status == 0)
        #expect(status.stdout.hasPrefix("\(chunks.count) of \(chunks.count) chunks of \(store) have a message search index (20000 of 20000 records)"), "\(status.stdout)")
        // The store (through its index) and the file (scanned) give the same records.
        for needle in ["export", "ZONE", "é"] {
            let query = ["--predicate", "message contains[cd] \"\(needle)\"", "--info", "--debug", "--style", "ndjson", "--timezone", "UTC"]
            let fromStore = try run(BuiltProducts.path("diag"), ["show", store] + query)
            let fromFile = try run(BuiltProducts.path("diag"), ["show", input] + query)
            #expect(fromStore.status == 0 && fromFile.status == 0, "\(fromStore.stderr)\(fromFile.stderr)")
            #expect(fromStore.stdout.split(separator: "\n").count == fromFile.stdout.split(separator: "\n").count, "\(needle)")
        }
    }
}
