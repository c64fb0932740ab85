import Foundation
import Testing
import TestSupport

/// The rest of `diag show`'s surface on the fleet: styles, levels, windows, processes, senders,
/// one bundle, and `diag fleet stats` against `diag stats`.
@Suite("fleet show options and fleet stats ≡ diag show and diag stats")
struct ShowOptionsAndStatsTests {
    static let optionSets: [[String]] = [
        ["--style", "default"], ["--style", "compact"], ["--style", "syslog"], ["--style", "json"],
        ["--style", "default", "--info", "--predicate", #"message CONTAINS[c] "café""#],
        ["--style", "ndjson", "--start", "2022-06-04 09:42:00", "--end", "2022-06-04 09:44:30", "--debug"],
        ["--style", "ndjson", "--process", "apsd", "--process", "120", "--info"],
        ["--style", "ndjson", "--sender", "CoreData", "--sender", "straße", "--info", "--debug"],
        ["--style", "ndjson", "--activity", "77", "--info", "--debug", "--predicate", "processID < 100"],
        ["--style", "compact", "--timezone", "+0530", "--predicate", #"process == "notifier""#],
    ]

    @Test(arguments: optionSets) func showOptions(options: [String]) throws {
        let fixture = try FleetFixture.shared()
        let local = try fixture.diag(["show"] + options + fixture.bundles)
        let fleet = try fixture.diag(["fleet", "show", "--database", fixture.databaseURL] + options)
        #expect(fleet.status == 0 && local.status == 0, "\(fleet.stderr) \(local.stderr)")
        #expect(!local.stdout.isEmpty)
        #expect(fleet.stdout == local.stdout, "\(options)")
    }

    @Test func oneBundleByNumberOrIdentity() throws {
        let fixture = try FleetFixture.shared()
        let local = try fixture.diag(["show", "--info", "--debug", "--style", "ndjson", fixture.bundles[1]])
        let byNumber = try fixture.diag(["fleet", "show", "--database", fixture.databaseURL, "--bundle", "2", "--info", "--debug", "--style", "ndjson"])
        #expect(byNumber.status == 0, "\(byNumber.stderr)")
        #expect(byNumber.stdout == local.stdout)
        let loaded = try fixture.diag(["fleet", "load", "--database", fixture.databaseURL, fixture.bundles[1]])
        #expect(loaded.status == 0 && loaded.stdout.contains("identity "), "\(loaded.stdout) \(loaded.stderr)")
        let identity = try #require(loaded.stdout.components(separatedBy: "identity ").last?.prefix(12))
        let byIdentity = try fixture.diag(["fleet", "show", "--database", fixture.databaseURL, "--bundle", String(identity), "--info", "--debug", "--style", "ndjson"])
        #expect(byIdentity.status == 0, "--bundle \(identity): \(byIdentity.stderr)")
        #expect(byIdentity.stdout == local.stdout)
        let unknown = try fixture.diag(["fleet", "show", "--database", fixture.databaseURL, "--bundle", "99"])
        #expect(unknown.status == 65)
        #expect(unknown.stderr.contains("no loaded bundle is '99'"))
    }

    static let statsPredicates: [String?] = [
        nil, #"process == "apsd""#, "messageType >= error", #"message CONTAINS[cd] "push""#,
        #"metadata.count > 2"#, #"metadata.storeIdentifier >= "ABC""#, #"timestamp >= "2022-06-04 09:42:00" AND timestamp < "2022-06-04 09:44:00""#,
    ]

    @Test(arguments: statsPredicates) func statsAsDiagStats(predicate: String?) throws {
        let fixture = try FleetFixture.shared()
        let filter = predicate.map { ["--predicate", $0] } ?? []
        for style in ["human", "json"] {
            let local = try fixture.diag(["stats", "--style", style, "--count", "all"] + filter + fixture.bundles)
            let fleet = try fixture.diag(["fleet", "stats", "--database", fixture.databaseURL, "--style", style, "--count", "all"] + filter)
            #expect(fleet.status == 0, "\(fleet.stderr)")
            if predicate?.hasPrefix("metadata.count") == true {
                // SQLite decides numeric metadata.<key> in SQL, PostgreSQL leaves it to Swift (docs/FLEET.md):
                // the same counts, and each says how it counted.
                #expect(fleet.stdout.replacingOccurrences(of: #""method":"streamed","residual":true,"reason":"the predicate has a part SQL cannot decide (a residual)""#, with: #""method":"sql-aggregate","residual":false,"reason":null"#)
                    .replacingOccurrences(of: "Counted by: streaming records (the predicate has a part SQL cannot decide (a residual))", with: "Counted by: aggregate SQL in the store")
                    == local.stdout, "\(predicate ?? "(none)") \(style)")
            } else {
                #expect(fleet.stdout == local.stdout, "\(predicate ?? "(none)") \(style)")
            }
        }
    }

    @Test func exactPredicatesAreCountedInSQL() throws {
        let fixture = try FleetFixture.shared()
        let exact = try fixture.diag(["fleet", "stats", "--database", fixture.databaseURL, "--style", "json", "--predicate", #"process == "apsd""#])
        #expect(exact.stdout.hasPrefix(#"{"method":"sql-aggregate","residual":false"#))
        let residual = try fixture.diag(["fleet", "stats", "--database", fixture.databaseURL, "--style", "json", "--predicate", #"message CONTAINS[cd] "push""#])
        #expect(residual.stdout.hasPrefix(#"{"method":"streamed","residual":true"#))
    }
}
