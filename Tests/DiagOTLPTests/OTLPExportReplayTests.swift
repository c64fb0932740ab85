import DiagModel
import DiagStore
import Foundation
import Testing
import TestSupport

/// docs/EXPORT.md's replay, as a user would run it: `diag export --format otlp-json` of a store,
/// each line POSTed by curl to `diagd --otlp-http`, gives back the store's records.
@Suite struct OTLPExportReplayTests {
    @Test func aStoreExportedByDiagAndReplayedIntoDiagdComesBackEqual() throws {
        let daemon = try OTLPDaemon()
        let generated = daemon.directory.file("generated.ndjson").path
        let source = daemon.directory.file("source-store").path
        let exported = daemon.directory.file("export.jsonl").path
        let diag = BuiltProducts.path("diag")
        #expect(try run(diag, ["generate", "--count", "3000", "--seed", "5", "--output", generated]).status == 0)
        let imported = try run(diag, ["import", "--store", source, generated])
        #expect(imported.status == 0, "\(imported.stderr)")
        let export = try run(diag, ["export", "--format", "otlp-json", "--batch-size", "500", "--output", exported, source])
        #expect(export.status == 0, "\(export.stderr)")
        let lines = try String(contentsOfFile: exported, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 6)
        for line in lines {
            let posted = try run("/usr/bin/curl", [
                "-sS", "-w", "\n%{http_code}", "-H", "Content-Type: application/json", "--data-binary", "@-", daemon.endpoint,
            ], input: Data(line.utf8))
            #expect(posted.stdout.hasSuffix("\n200"), "\(posted.stdout) \(posted.stderr)")
        }
        let store = try LogStore.open(at: URL(fileURLWithPath: source), options: .readOnly)
        let cursor = store.records()
        var original: [LogRecord] = []
        while let record = try cursor.next() { original.append(record) }
        // Debug records stay in diagd's memory ring by default; imported records have no receipt time.
        let expected = original.filter { $0.messageType != .debug }
        var replayed = try daemon.clientRecords()
        for index in replayed.indices { replayed[index].receiptTime = nil }
        #expect(original.count == 3000)
        #expect(replayed.count == expected.count)
        #expect(Set(replayed) == Set(expected))
        #expect(daemon.stop() == 0)
    }
}
