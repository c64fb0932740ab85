import Foundation
import SyncDemoKit
import Testing
import TestSupport

/// `diag diff` of two repros of the sample sync system, each logged into its own diagd: a good
/// run against another good run (other identifiers, other timings) shows nothing new among the
/// records `diag diff` reads by default, and a good run against a run with a fault puts the
/// fault's patterns first, as new.
@Suite(.serialized) struct DiffReproTests {
    /// A finished repro: the store of its diagd (stopped), the harness keeping its folder alive.
    struct Repro {
        let harness: ScenarioHarness
        var store: String { harness.storePath }

        init(fault: DemoFault?) throws {
            harness = try ScenarioHarness()
            _ = try harness.play(posts: 8, fault: fault)
            #expect(harness.stopDaemon() == 0)
        }
    }

    static func diff(_ base: Repro, _ target: Repro, _ extra: [String] = []) throws -> (status: Int32, json: [String: Any]) {
        let output = try run(BuiltProducts.path("diag"), ["diff", base.store, target.store, "--style", "json"] + extra)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "stdout: \(output.stdout) stderr: \(output.stderr)")
        return (output.status, json)
    }

    static func patterns(_ json: [String: Any], _ key: String) -> [[String: Any]] {
        json[key] as? [[String: Any]] ?? []
    }

    static func isProblem(_ pattern: [String: Any]) -> Bool {
        let levels = pattern["messageTypes"] as? [String: Int] ?? [:]
        return (levels["Error"] ?? 0) + (levels["Fault"] ?? 0) > 0
    }

    @Test func twoGoodRunsHaveNoNewOrGonePatterns() throws {
        let first = try Repro(fault: nil)
        let second = try Repro(fault: nil)
        let (status, json) = try Self.diff(first, second, ["--fail-on-new-errors"])
        #expect(status == 0)
        #expect(Self.patterns(json, "new").isEmpty, "\(Self.patterns(json, "new").map { $0["pattern"]! })")
        #expect(Self.patterns(json, "gone").isEmpty, "\(Self.patterns(json, "gone").map { $0["pattern"]! })")
        #expect((json["base"] as? [String: Any])?["records"] as? Int ?? 0 > 10)
    }

    @Test(arguments: [
        (DemoFault.throttle, "rate limited"),
        (.pushLost, "push"),
        (.corruptAttachment, "failed validation"),
        (.slowImport, "budget"),
    ])
    func aFaultsPatternsComeFirstAsNew(fault: DemoFault, words: String) throws {
        let good = try Repro(fault: nil)
        let bad = try Repro(fault: fault)
        let (status, json) = try Self.diff(good, bad, ["--fail-on-new-errors"])
        #expect(status == 2, "the CI flag fails on new Error/Fault patterns")
        let new = Self.patterns(json, "new")
        let first = try #require(new.first, "no new pattern for \(fault)")
        #expect(Self.isProblem(first))
        #expect((first["pattern"] as? String ?? "").lowercased().contains(words), "\(first)")
        #expect(first["sample"] is String && first["processes"] is [String])
        // Error and Fault patterns before every other new one.
        let problems = new.map(Self.isProblem)
        #expect(problems == problems.sorted { $0 && !$1 })
        // Without the flag the same difference exits 0.
        #expect(try Self.diff(good, bad).status == 0)
    }
}
