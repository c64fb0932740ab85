@testable import DiagBundle
import DiagStore
import Foundation
import Testing
import TestSupport

/// `diag collect` archives the store's sealed chunks straight from their files: each one in the
/// bundle is its source byte for byte but for the journal mode, and the summaries and the
/// manifest describe exactly what was archived.
struct CollectStreamingTests {
    @Test func sealedChunksAreArchivedFromTheirFilesAndTheSummariesCountThem() throws {
        let folder = try TemporaryDirectory("diag-collect-stream")
        let store = try BundleQueryTests().makeStore(folder)
        // Chunks diagd has sealed and indexed; `diag index` does it for this store written by the library.
        #expect(try BundleQueryTests().diag(["index", "--store", store], cache: folder).status == 0)
        let info = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: store + "/Info.json"))) as? [String: Any]
        let sealed = ((info?["chunks"] as? [[String: Any]]) ?? []).filter { $0["sealed"] as? Bool == true }.compactMap { $0["file"] as? String }
        #expect(sealed.count > 2)

        let collected = try BundleQueryTests().diag(["collect", "--store", store, "--output", folder.path + "/", "--compression", "none"], cache: folder)
        #expect(collected.status == 0, "\(collected.stderr)")
        let bundle = try #require(collected.stdout.split(separator: "\n").last.map(String.init))
        let verified = try BundleQueryTests().diag(["verify", bundle], cache: folder)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")

        let extracted = folder.file("extracted")
        try FileManager.default.createDirectory(at: extracted, withIntermediateDirectories: true)
        #expect(try run("/usr/bin/tar", ["-xf", bundle, "-C", extracted.path]).status == 0)
        let top = try #require(try FileManager.default.contentsOfDirectory(atPath: extracted.path).first)
        let root = extracted.appendingPathComponent(top)
        for file in sealed {
            var source = try Data(contentsOf: URL(fileURLWithPath: "\(store)/Persist/\(file)"))
            source[18] = 1
            source[19] = 1
            let archived = root.appendingPathComponent("system_logs.logarchive/Persist/\(file)")
            #expect(try Data(contentsOf: archived) == source, "\(file)")
            let database = try Database(path: archived.path, options: .init(readOnly: true))
            #expect(try database.scalarText("PRAGMA integrity_check") == "ok")
            #expect(try database.scalarText("PRAGMA journal_mode") == "delete")
        }

        // Info.json lists every chunk with its records; the summaries counted every record.
        let snapshot = try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("system_logs.logarchive/Info.json"))) as? [String: Any]
        let chunks = (snapshot?["chunks"] as? [[String: Any]]) ?? []
        #expect(Set(sealed).isSubset(of: Set(chunks.compactMap { $0["file"] as? String })))
        #expect(chunks.reduce(0) { $0 + (($1["recordCount"] as? Int) ?? 0) } == 2400)
        for chunk in chunks {
            let file = try #require(chunk["file"] as? String)
            let database = try Database(path: root.appendingPathComponent("system_logs.logarchive/Persist/\(file)").path, options: .init(readOnly: true))
            #expect(try database.scalarInt("SELECT count(*) FROM records") == Int64(chunk["recordCount"] as? Int ?? -1), "\(file)")
            #expect(try database.scalarInt("SELECT min(timestamp) FROM records") == Int64(chunk["oldestTimestamp"] as? Int ?? -1))
            #expect(try database.scalarInt("SELECT max(timestamp) FROM records") == Int64(chunk["newestTimestamp"] as? Int ?? -1))
        }
        let stats = try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("summaries/stats.json"))) as? [String: Any]
        #expect(stats?["total"] as? Int == 2400)
        let errors = try String(contentsOf: root.appendingPathComponent("summaries/errors.txt"), encoding: .utf8)
        #expect(errors.split(separator: "\n").filter { $0.contains("step ") }.count == 800)
    }

    /// Each pinned chunk holds a few descriptors; a low soft limit does not stop the collection.
    @Test func aLowSoftDescriptorLimitIsRaised() throws {
        let folder = try TemporaryDirectory("diag-collect-limit")
        let store = try BundleQueryTests().makeStore(folder)
        let chunks = try FileManager.default.contentsOfDirectory(atPath: store + "/Persist").filter { $0.hasSuffix(".chunk.sqlite") }
        #expect(chunks.count >= 5)
        let collected = try run("/bin/sh", ["-c", "ulimit -Sn 24 && exec \"$0\" collect --store \"$1\" --output \"$2/\" --compression none",
                                            BuiltProducts.path("diag"), store, folder.path],
                                environment: ["XDG_CACHE_HOME": folder.path, "TZ": "UTC"])
        #expect(collected.status == 0, "\(collected.stderr)")
        let bundle = try #require(collected.stdout.split(separator: "\n").last.map(String.init))
        #expect(try BundleQueryTests().diag(["verify", bundle], cache: folder).status == 0)
    }

    /// Chunks that have no message search index yet (sealed or not) are copied and given one: a
    /// bundle's reader finds `CONTAINS` through the index, with the same records as the store.
    @Test func everyChunkOfABundleHasItsSearchIndex() throws {
        let folder = try TemporaryDirectory("diag-collect-index")
        let store = try BundleQueryTests().makeStore(folder)
        let before = try LogStore.open(at: URL(fileURLWithPath: store), options: .readOnly).info.chunks
        #expect(before.contains { !$0.searchIndex })

        let collected = try BundleQueryTests().diag(["collect", "--store", store, "--output", folder.path + "/", "--compression", "none"], cache: folder)
        #expect(collected.status == 0, "\(collected.stderr)")
        let bundle = try #require(collected.stdout.split(separator: "\n").last.map(String.init))
        let extracted = folder.file("extracted")
        try FileManager.default.createDirectory(at: extracted, withIntermediateDirectories: true)
        #expect(try run("/usr/bin/tar", ["-xf", bundle, "-C", extracted.path]).status == 0)
        let top = try #require(try FileManager.default.contentsOfDirectory(atPath: extracted.path).first)
        let archived = try LogStore.open(at: extracted.appendingPathComponent(top).appendingPathComponent("system_logs.logarchive"), options: .readOnly)
        #expect(!archived.info.chunks.isEmpty)
        for chunk in archived.info.chunks {
            #expect(chunk.sealed && chunk.searchIndex, "\(chunk.file) sealed \(chunk.sealed), search index \(chunk.searchIndex)")
        }
        #expect(try BundleQueryTests().diag(["verify", bundle], cache: folder).status == 0)

        let query = ["--predicate", "message contains[cd] \"STEP 17\"", "--info", "--debug", "--style", "ndjson"]
        let fromStore = try BundleQueryTests().diag(["show", store] + query, cache: folder)
        let fromBundle = try BundleQueryTests().diag(["show", bundle] + query, cache: folder)
        #expect(fromStore.status == 0 && fromBundle.status == 0, "\(fromStore.stderr)\(fromBundle.stderr)")
        #expect(!fromStore.stdout.isEmpty)
        #expect(fromBundle.stdout == fromStore.stdout)
    }
}
