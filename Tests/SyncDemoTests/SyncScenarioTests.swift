import Foundation
import SyncDemoKit
import Testing
import TestSupport

/// The sample played end to end: a real diagd, the four components as processes, then `diag`
/// over what they logged and the devices' stores.
@Suite(.serialized)
struct SyncScenarioTests {
    static let components: Set<String> = ["sync-core", "scheduler", "transport", "notifier"]

    static func variables(_ run: [String: String]) -> [String] {
        ["--var", "STORE_ID=\(run["STORE_ID"] ?? "")", "--var", "CONTAINER=\(run["CONTAINER"] ?? "")"]
    }

    static func values(_ records: [[String: Any]], _ key: String) -> Set<String> {
        Set(records.compactMap { record in record[key].map { "\($0)" } })
    }

    @Test func throttledExportIsFollowedAcrossAllFourProcessesAndBothStoresAreComplete() throws {
        let harness = try ScenarioHarness()
        let run = try harness.play(posts: 8, fault: .throttle)
        #expect(harness.stopDaemon() == 0)
        let variables = Self.variables(run)

        let all = try harness.show()
        #expect(Self.values(all, "process").isSuperset(of: Self.components))
        let syncCores = all.filter { $0["process"] as? String == "sync-core" }
        #expect(Self.values(syncCores, "processID").count == 2, "an exporting and an importing sync core")
        let messages = all.compactMap { $0["eventMessage"] as? String }
        for store in [run["STORE_ID"], run["IMPORT_STORE_ID"]] {
            let store = try #require(store)
            #expect(messages.contains { $0.contains(store) }, "records of store \(store)")
        }

        var perComponent = 0
        for component in Self.components.sorted() {
            let found = try harness.show(["--predicate-file", ScenarioHarness.predicateFile("\(component).predicate")] + variables)
            #expect(!found.isEmpty, "\(component).predicate finds records")
            #expect(Self.values(found, "process") == [component], "\(component).predicate finds only its component")
            perComponent += found.count
        }
        let feedback = try harness.show(["--predicate-file", ScenarioHarness.predicateFile("feedback.predicate")] + variables)
        #expect(feedback.count == perComponent, "the combined predicate is the four together")
        let faults = feedback.filter { ["Error", "Fault"].contains($0["messageType"] as? String ?? "") }
        let throttled = faults.filter { ($0["eventMessage"] as? String ?? "").contains("Rate Limited") || ($0["eventMessage"] as? String ?? "").contains("rate limited") }
        #expect(Self.values(throttled, "process") == ["transport", "sync-core"], "the throttling shows on both sides")

        let activity = try #require(run["EXPORT_ACTIVITY"])
        // run.env gives activities in hex, as the default style's Activity column shows them.
        #expect(activity.hasPrefix("0x"))
        let activityDecimal = String(Int64(bitPattern: try #require(UInt64(activity.dropFirst(2), radix: 16))))
        #expect(try harness.show(["--activity", activity]).count == (try harness.show(["--activity", activityDecimal])).count)
        let followed = try harness.show(["--predicate", "activityIdentifier == \(activity)"])
        #expect(Self.values(followed, "process") == Self.components, "one export, from the scheduler to the notifier")
        let importActivity = try #require(run["IMPORT_ACTIVITY"])
        let imported = try harness.show(["--predicate", "activityIdentifier == \(importActivity)"])
        #expect(Self.values(imported, "parentActivityIdentifier").contains(activityDecimal), "the import continues the export's activity")

        let exporter = try PersistentStore(path: try #require(run["STORE_FILE"]), readOnly: true)
        let importer = try PersistentStore(path: try #require(run["IMPORT_STORE_FILE"]), readOnly: true)
        #expect(exporter.identifier == run["STORE_ID"])
        #expect(importer.identifier == run["IMPORT_STORE_ID"])
        #expect(exporter.postCount == 8)
        #expect(try exporter.audit().problems == [])
        #expect(try importer.audit().problems == [])
        #expect(try importer.recordNames() == exporter.recordNames(), "every exported post and attachment arrived")

        try checkStatsAgreeWithShow(harness, variables: variables, allCount: all.count)
        try checkBundle(harness, run: run, variables: variables, feedbackCount: feedback.count)
    }

    /// `diag stats` totals are `diag show`'s counts, by aggregate SQL and by streaming.
    func checkStatsAgreeWithShow(_ harness: ScenarioHarness, variables: [String], allCount: Int) throws {
        let plain = try StatsResult(harness.diag(["stats", harness.storePath, "--style", "json", "--count", "all"]))
        #expect(plain.method == "sql-aggregate")
        #expect(plain.events == allCount)
        let components = Self.components.sorted()
        #expect(plain.processes.filter { components.contains($0.key) }.count == 4)
        for component in components {
            let shown = try harness.show(["--process", component])
            #expect(plain.processes[component] == shown.count, "\(component): stats and show agree")
        }
        // The same records as a plain NDJSON file are counted record by record, to the same figures.
        let exported = try harness.diag(["show", harness.storePath, "--info", "--debug", "--style", "ndjson"])
        let file = try harness.directory.write("all.ndjson", exported.stdout)
        let streamed = try StatsResult(harness.diag(["stats", file, "--style", "json", "--count", "all"]))
        #expect(streamed.method == "streamed")
        #expect(streamed.events == plain.events)
        #expect(streamed.processes == plain.processes && streamed.levels == plain.levels)
        #expect(streamed.bytes == plain.bytes)
        let levels = try harness.show(["--predicate", "messageType == error OR messageType == fault"])
        #expect(plain.levels["Error", default: 0] + plain.levels["Fault", default: 0] == levels.count)
        let planned = try StatsResult(harness.diag(["stats", harness.storePath, "--style", "json", "--predicate", "process == \"transport\" AND messageType == error"]))
        #expect(planned.method == "sql-aggregate" && !planned.residual)
        #expect(planned.events == (try harness.show(["--predicate", "process == \"transport\" AND messageType == error"])).count)
        let residual = try StatsResult(harness.diag(["stats", harness.storePath, "--style", "json", "--predicate", "message MATCHES \".*[Tt]hrottled.*\""]))
        #expect(residual.method == "streamed" && residual.residual, "a regex is checked record by record")
        #expect(residual.events == (try harness.show(["--predicate", "message MATCHES \".*[Tt]hrottled.*\""])).count)
        #expect(residual.events > 0)
    }

    /// `diag collect` with both sync cores' store files: a bundle the feedback predicate reads,
    /// holding both stores whole and consistent.
    func checkBundle(_ harness: ScenarioHarness, run: [String: String], variables: [String], feedbackCount: Int) throws {
        let output = harness.directory.file("bundles").path
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let collect = try harness.diag([
            "collect", "--store", harness.storePath, "--output", output + "/",
            "--store-file", run["STORE_FILE"] ?? "", "--store-file", run["IMPORT_STORE_FILE"] ?? "",
        ] + variables)
        try #require(collect.status == 0, "diag collect: \(collect.stderr)")
        let bundle = try #require(collect.stdout.split(separator: "\n").last.map(String.init))
        let fromBundle = try harness.show(["--predicate-file", ScenarioHarness.predicateFile("feedback.predicate")] + variables, source: bundle)
        #expect(fromBundle.count == feedbackCount, "the bundle answers the feedback predicate as the store did")
        let stats = try StatsResult(harness.diag(["stats", bundle, "--style", "json", "--predicate-file", ScenarioHarness.predicateFile("feedback.predicate")] + variables))
        #expect(stats.events == fromBundle.count)

        let report = try harness.diag([
            "feedback", "--store", harness.storePath, "--output", output + "/report.tar.gz", "--title", "throttled export",
            "--predicate-file", ScenarioHarness.predicateFile("feedback.predicate"),
        ] + variables)
        try #require(report.status == 0, "diag feedback: \(report.stderr)")
        #expect(try harness.show([], source: output + "/report.tar.gz").count == feedbackCount, "the feedback bundle keeps what the predicate selects")

        let extracted = harness.directory.file("extracted").path
        try FileManager.default.createDirectory(atPath: extracted, withIntermediateDirectories: true)
        let untar = try TestSupport.run("/bin/tar", ["-xzf", bundle, "-C", extracted])
        try #require(untar.status == 0, "tar: \(untar.stderr)")
        let top = try #require(try FileManager.default.contentsOfDirectory(atPath: extracted).first)
        for (device, key) in [("A", "STORE_FILE"), ("B", "IMPORT_STORE_FILE")] {
            let snapshot = "\(extracted)/\(top)/stores/SyncDemo-\(device)/SyncDemo-\(device).sqlite"
            let copy = try PersistentStore(path: snapshot, readOnly: true)
            let original = try PersistentStore(path: try #require(run[key]), readOnly: true)
            #expect(copy.identifier == original.identifier)
            #expect(try copy.audit().problems == [], "device \(device)'s snapshot is consistent")
            #expect(try copy.recordNames() == original.recordNames(), "device \(device)'s snapshot holds every committed post and attachment")
        }
    }

    @Test(arguments: [DemoFault.pushLost, .corruptAttachment, .slowImport])
    func faultShowsAsErrorOrFaultRecordsTheFeedbackPredicateFinds(fault: DemoFault) throws {
        let harness = try ScenarioHarness()
        let run = try harness.play(posts: 6, fault: fault)
        #expect(harness.stopDaemon() == 0)
        let feedback = try harness.show(["--predicate-file", ScenarioHarness.predicateFile("feedback.predicate")] + Self.variables(run))
        let faults = feedback.filter { ["Error", "Fault"].contains($0["messageType"] as? String ?? "") }
        let expected: (process: String, text: String) = switch fault {
        case .pushLost: ("notifier", "Dropped push")
        case .corruptAttachment: ("sync-core", "failed validation")
        case .slowImport: ("sync-core", "over the scheduler's budget")
        case .throttle: ("transport", "rate limited")
        }
        #expect(faults.contains { $0["process"] as? String == expected.process && ($0["eventMessage"] as? String ?? "").contains(expected.text) },
                "\(fault.rawValue): \(faults.map { $0["eventMessage"] ?? "" })")

        let exporter = try PersistentStore(path: try #require(run["STORE_FILE"]), readOnly: true)
        let importer = try PersistentStore(path: try #require(run["IMPORT_STORE_FILE"]), readOnly: true)
        #expect(try importer.audit().problems == [], "what the import committed is consistent")
        let sent = try exporter.recordNames(), received = try importer.recordNames()
        #expect(received.posts == sent.posts)
        #expect(received.attachments.count == sent.attachments.count - (fault == .corruptAttachment ? 1 : 0))
    }
}
