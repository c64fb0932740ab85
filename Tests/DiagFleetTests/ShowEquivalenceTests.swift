import Foundation
import Testing
import TestSupport

/// `diag fleet show` prints exactly what `diag show` prints over the same bundles (given in load
/// order), for every predicate case of the predicate tests.
@Suite("fleet show ≡ diag show")
struct ShowEquivalenceTests {
    static let predicates = PredicateCases.plannerEquivalence + PredicateCases.storeEquivalence + [
        PredicateCases.WWDC.demo, PredicateCases.WWDC.cloudd, PredicateCases.WWDC.apsd, PredicateCases.WWDC.dasd,
        PredicateCases.WWDC.combined,
    ]

    @Test(arguments: predicates) func samePrintedRecords(predicate: String) throws {
        let fixture = try FleetFixture.shared()
        // --signpost: every record, signposts too, on both sides.
        let local = try fixture.diag(["show", "--info", "--debug", "--signpost", "--style", "ndjson", "--predicate", predicate] + fixture.bundles)
        let fleet = try fixture.diag(["fleet", "show", "--database", fixture.databaseURL, "--info", "--debug", "--signpost", "--style", "ndjson", "--predicate", predicate])
        #expect(fleet.status == local.status, "\(predicate): \(fleet.stderr)")
        #expect(fleet.stderr == local.stderr, "\(predicate)")
        #expect(fleet.stdout == local.stdout, "\(predicate): fleet \(fleet.stdout.split(separator: "\n").count) lines, show \(local.stdout.split(separator: "\n").count)")
    }

    /// Without --signpost both leave signposts out, the same way.
    @Test func signpostsAreLeftOutByDefaultOnBothSides() throws {
        let fixture = try FleetFixture.shared()
        let local = try fixture.diag(["show", "--info", "--debug", "--style", "ndjson"] + fixture.bundles)
        let fleet = try fixture.diag(["fleet", "show", "--database", fixture.databaseURL, "--info", "--debug", "--style", "ndjson"])
        #expect(fleet.status == 0 && local.status == 0, "\(fleet.stderr)\(local.stderr)")
        #expect(fleet.stdout == local.stdout)
        #expect(!local.stdout.contains(#""eventType":"signpostEvent""#))
        #expect(local.stdout.contains(#""eventType":"logEvent""#))
    }
}
