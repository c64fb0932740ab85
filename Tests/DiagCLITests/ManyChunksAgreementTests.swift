import DiagGenerator
import DiagStore
import Foundation
import Testing
import TestSupport

/// A store of many small chunks read by `diag show` on its threads, each chunk's connection
/// opened, its schema parsed and a dozen statements prepared and freed (through SQLite's
/// per-thread allocation caches, `Database.useThreadCaches`, which the `diag` process sets up),
/// shows the same records as the same query over the NDJSON file the records came from, which
/// no SQLite reads.
@Suite(.serialized) struct ManyChunksAgreementTests {
    @Test func aStoreOfManySmallChunksShowsWhatItsFileShows() throws {
        let folder = try TemporaryDirectory("diag-many-chunks")
        let file = folder.file("records.ndjson").path
        let options = GeneratorOptions(count: 6_000, seed: 7)
        let writer = try NDJSONWriter(path: file)
        try RecordGenerator.write(options, to: writer)
        try writer.close()
        // 48 KiB chunks: a few dozen, sealed (with their indexes and block sets) but without
        // their message search index, as diagd leaves them until its indexer gets there.
        let storeURL = folder.file("store")
        do {
            let store = try LogStore.open(at: storeURL, create: true, options: .init(chunkSizeLimit: 48 << 10))
            // The size is checked at each append: batches of 100, as diagd's writer takes them.
            let records = Array(RecordGenerator(options))
            for start in stride(from: 0, to: records.count, by: 100) {
                try store.append(Array(records[start..<min(start + 100, records.count)]))
            }
            try store.sealPendingChunks()
        }
        let chunks = try LogStore.open(at: storeURL, options: .readOnly).info.chunks
        #expect(chunks.count >= 20, "\(chunks.count) chunks")

        // Each predicate with how many of the 6,000 records it finds (the file's count, checked
        // too, so that two empty answers cannot pass for agreement).
        let predicates: [(String, Int)] = [
            ("eventMessage CONTAINS[cd] 'title is a required value'", 8),  // rare: block sets, id lookups
            ("eventMessage CONTAINS[cd] 'qzxv wkjy'", 0),                  // nothing: every chunk opened for no row
            ("eventMessage CONTAINS[cd] 'delivering push'", 310),          // common
            ("process == 'notifier' AND eventMessage CONTAINS 'token'", 310),
            ("eventMessage MATCHES '.*retry.*[0-9]+.*'", 40),
        ]
        for (predicate, count) in predicates {
            let arguments = ["show", "--style", "ndjson", "--info", "--debug", "--predicate", predicate]
            let fromStore = try diag(arguments + [storeURL.path])
            let fromFile = try diag(arguments + [file])
            #expect(fromStore.status == 0 && fromFile.status == 0, "\(predicate): \(fromStore.stderr)\(fromFile.stderr)")
            #expect(fromFile.stdout.split(separator: "\n").count == count, "\(predicate)")
            #expect(fromStore.stdout == fromFile.stdout, "\(predicate)")
        }
        let all = try diag(["show", "--style", "ndjson", "--info", "--debug", storeURL.path])
        #expect(all.stdout.split(separator: "\n").count == 6_000)
    }
}
