import DiagStore
import Foundation
import Testing
import TestSupport

/// `diag patterns` and `diag diff` over a store read it on every core, the messages masked on
/// the reading threads; over a file they read record after record. The same records must give
/// the same output, byte for byte (IDs, counts, times, processes, samples, the overflow),
/// whatever the filters, and under a cap small enough to compact and overflow.
@Suite struct PatternStoreScanTests {
    struct Data {
        let folder: TemporaryDirectory
        let files: [String]
        let stores: [String]

        init() throws {
            folder = try TemporaryDirectory("diag-pattern-scan")
            var files: [String] = []
            var stores: [String] = []
            // Enough records for several slices of a chunk (RecordCursor.recordsPerSlice), so
            // that more than one thread reads.
            for seed in [3, 4] {
                let file = folder.file("g\(seed).ndjson").path
                let generated = try diag(["generate", "--count", "30000", "--seed", "\(seed)", "--output", file])
                #expect(generated.status == 0, "\(generated.stderr)")
                let store = folder.file("store\(seed)").path
                let imported = try diag(["import", "--store", store, file])
                #expect(imported.status == 0, "\(imported.stderr)")
                files.append(file)
                stores.append(store)
            }
            self.files = files
            self.stores = stores
        }
    }

    @Test func aStoreGivesThePatternsOfTheSameRecordsReadFromAFile() throws {
        let data = try Data()
        let cases: [[String]] = [
            ["--info", "--debug"],
            [],                                                            // levels selected in SQL
            ["--info", "--predicate", "eventMessage CONTAINS[c] 'batch'"], // a residual on the message
            ["--info", "--debug", "--max-patterns", "12"],                  // compaction and overflow
            ["--info", "--debug", "--process", "transport"],
        ]
        for options in cases {
            for style in ["json", "default"] {
                let fromFile = try diag(["patterns", "--style", style] + options + [data.files[0]])
                let fromStore = try diag(["patterns", "--style", style] + options + [data.stores[0]])
                #expect(fromFile.status == 0 && fromStore.status == 0, "\(options): \(fromFile.stderr) \(fromStore.stderr)")
                #expect(fromStore.stdout == fromFile.stdout, "\(options) --style \(style)")
                #expect(fromStore.stderr == fromFile.stderr, "\(options) --style \(style)")
                #expect(fromFile.stdout.utf8.count > 500, "\(options): \(fromFile.stdout)")
            }
        }
        let capped = try diag(["patterns", "--info", "--debug", "--max-patterns", "12", data.stores[0]])
        #expect(capped.stdout.contains("beyond the cap of patterns"), "the cap case should overflow: \(capped.stdout)")
    }

    @Test func aRowNoRecordHoldsEndsTheScanWithItsChunkAndValue() throws {
        let folder = try TemporaryDirectory("diag-pattern-scan-damaged")
        let file = folder.file("g.ndjson").path
        #expect(try diag(["generate", "--count", "30000", "--seed", "9", "--output", file]).status == 0)
        let store = folder.file("store").path
        #expect(try diag(["import", "--store", store, file]).status == 0)
        let persist = folder.file("store/Persist")
        let chunk = try #require(try FileManager.default.contentsOfDirectory(atPath: persist.path).sorted().first { $0.hasSuffix(".chunk.sqlite") })
        // A row in the third slice of the chunk, read by a thread other than the first's.
        try Database(path: persist.appendingPathComponent(chunk).path).execute("UPDATE records SET messageType = 99 WHERE id = 20000")
        let output = try diag(["patterns", "--info", "--debug", store])
        #expect(output.status == 65, "\(output.stderr)")
        #expect(output.stderr.contains(chunk) && output.stderr.contains("messageType holds 99"), "\(output.stderr)")
    }

    @Test func diffOfTwoStoresIsTheDiffOfTheirFiles() throws {
        let data = try Data()
        let fromFiles = try diag(["diff", "--info", "--style", "json", data.files[0], data.files[1]])
        let fromStores = try diag(["diff", "--info", "--style", "json", data.stores[0], data.stores[1]])
        #expect(fromFiles.status == 0 && fromStores.status == 0, "\(fromFiles.stderr) \(fromStores.stderr)")
        var expected = fromFiles.stdout
        for (file, store) in zip(data.files, data.stores) {
            expected = expected.replacingOccurrences(of: file, with: store)
        }
        #expect(fromStores.stdout == expected)
    }
}
