import Foundation
import SyncDemoKit
import Testing
import TestSupport

/// The sample system's signposts, read back with `diag signposts` as a sync engineer would.
@Suite struct SignpostScenarioTests {
    @Test func theSlowImportIsTheLongImportIntervalAndEverySignpostPairs() throws {
        let harness = try ScenarioHarness()
        let run = try harness.play(posts: 6, fault: .slowImport)
        #expect(harness.stopDaemon() == 0)
        let output = try harness.diag(["signposts", harness.storePath, "--activities", "--style", "json"])
        #expect(output.status == 0, "\(output.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let names = try #require(object["names"] as? [[String: Any]])
        func summary(_ name: String) -> [String: Any]? { names.first { $0["name"] as? String == name } }

        for name in ["export", "export store", "import", "import store", "upload", "download", "activity", "push"] {
            #expect(summary(name) != nil, "no \(name) intervals: \(names.map { $0["name"] ?? "" })")
        }
        // Every begin the components sent was ended, and nothing ended that did not begin.
        #expect(object["unmatchedBeginCount"] as? Int == 0)
        #expect(object["unmatchedEndCount"] as? Int == 0)

        // The fault holds every import batch for the import budget (2 s) and half a second more,
        // shared among the batches: the store's import interval is at least 2.5 s, per batch
        // at least its share, and the slowest sync-core interval is that import.
        let importStore = try #require(summary("import store"))
        #expect(importStore["count"] as? Int == 1)
        #expect((importStore["max"] as? Double ?? 0) >= 2.5)
        let imports = try #require(summary("import"))
        let batches = try #require(imports["count"] as? Int)
        #expect(batches >= 1)
        #expect((imports["min"] as? Double ?? 0) >= Double((2_000 + 500) / batches) / 1000 - 0.001)
        let syncCore = names.filter { $0["subsystem"] as? String == SyncDemoNames.subsystem && $0["category"] as? String == "sync" }
        let slowest = syncCore.max { ($0["max"] as? Double ?? 0) < ($1["max"] as? Double ?? 0) }
        #expect(slowest?["name"] as? String == "import store")
        let slowestInterval = (importStore["slowest"] as? [[String: Any]])?.first
        #expect(slowestInterval?["process"] as? String == "sync-core")
        #expect((slowestInterval?["beginMessage"] as? String ?? "").contains(try #require(run["IMPORT_STORE_ID"])))

        // The import activity, from the scheduler's creation to its last record across processes.
        let activities = try #require(object["activities"] as? [[String: Any]])
        let importActivity = activities.first { ($0["name"] as? String ?? "").hasPrefix(SyncDemoNames.activityPrefix + ".import.") }
        #expect((importActivity?["max"] as? Double ?? 0) >= 2.5)
    }

}
