import Foundation
import Testing
import TestSupport

/// `log stats --overview`, `--process NAME` and `--sender NAME`, on a store and on a file.
@Suite struct StatsSubjectsTests {
    static let records = [
        #"{"timestamp":1795945201000000000,"eventMessage":"one","messageType":"Default","process":"syncd","processID":10,"sender":"CoreData"}"#,
        #"{"timestamp":1795945202000000000,"eventMessage":"two","messageType":"Error","process":"syncd","processID":10,"sender":"Transport"}"#,
        #"{"timestamp":1795945203000000000,"eventMessage":"three","messageType":"Default","process":"pushd","processID":20,"sender":"CoreData"}"#,
        #"{"timestamp":1795945204000000000,"eventMessage":"four \"q\"","messageType":"Info","process":"pushd","processID":20,"sender":"say \"hi\""}"#,
    ].joined(separator: "\n") + "\n"

    @Test func subjectsNarrowTheCountsAndOverviewKeepsTotalsAndLevels() throws {
        let folder = try TemporaryDirectory("diag-stats-subjects")
        let file = try folder.write("r.ndjson", Self.records)
        let store = folder.file("store").path
        #expect(try diag(["import", "--store", store, file]).status == 0)
        for source in [file, store] {
            func total(_ extra: [String]) throws -> String {
                let output = try diag(["stats", source] + extra)
                #expect(output.status == 0, "\(output.stderr)")
                return String(output.stdout.split(separator: "\n").first ?? "")
            }
            #expect(try total(["--process", "syncd"]).hasPrefix("Total: 2 events"))
            #expect(try total(["--process", "20"]).hasPrefix("Total: 2 events"))
            #expect(try total(["--process", "syncd", "--process", "20"]).hasPrefix("Total: 4 events"))
            #expect(try total(["--sender", "CoreData"]).hasPrefix("Total: 2 events"))
            #expect(try total(["--sender", "CoreData", "--process", "pushd"]).hasPrefix("Total: 1 events"))
            #expect(try total(["--sender", #"say "hi""#]).hasPrefix("Total: 1 events"))
            #expect(try total(["--sender", "CoreData", "--predicate", "messageType == default"]).hasPrefix("Total: 2 events"))
            let overview = try diag(["stats", "--overview", source]).stdout
            #expect(overview.contains("Total: 4 events"))
            #expect(overview.contains("Levels:"))
            #expect(!overview.contains("Processes"))
            #expect(!overview.contains("Per minute"))
        }
        #expect(try diag(["stats", file]).stdout.contains("Processes"))
    }
}
