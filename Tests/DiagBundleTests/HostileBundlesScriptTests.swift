import Foundation
import Testing
import TestSupport

/// Benchmarks/hostile-bundles.sh, reduced to a few cases at the fuzzer seeds' sizes, run against
/// the built `diag` (the whole run is in the benchmark; issue 13's "Done when").
struct HostileBundlesScriptTests {
    static let script = BuiltProducts.fixturesDirectory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Benchmarks/hostile-bundles.sh").path
    static let cases = ["good", "dotdot-path", "symlink", "fifo-entry", "unlisted-bomb", "trigger-version1",
                        "view-recursive", "control-names", "control-records", "version1-chunk", "many-chunks-info"]

    @Test func everyCaseEndsWithinItsBoundsAndLeavesNothing() throws {
        let result = try run("/bin/bash", [Self.script, "--small"], environment: [
            "DIAG": BuiltProducts.path("diag"), "CASES": Self.cases.joined(separator: ","), "BOUND_SECONDS": "300",
        ])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        for name in Self.cases {
            let rows = result.stdout.split(separator: "\n").filter { $0.hasPrefix(name + " ") }
            #expect(rows.count == 2, "\(name): \(rows)")
            #expect(rows.allSatisfy { $0.hasSuffix(" ok") }, "\(rows)")
        }
        #expect(result.stdout.contains("\(Self.cases.count) cases, \(Self.cases.count * 2) commands, 0 failed"), "\(result.stdout)")
    }

    /// The run's first finding: a manifest under its 16 MiB bound listing 140,000 missing files
    /// took verify and show to 461 MiB (JSONSerialization boxes every value); decoded into
    /// ManifestDocument they stay under the run's 128 MiB, and exit 65.
    @Test func aManifestListingManyFilesStaysUnderTheMemoryBound() throws {
        let result = try run("/bin/bash", [Self.script], environment: [
            "DIAG": BuiltProducts.path("diag"), "CASES": "many-listed", "BOUND_SECONDS": "300",
        ])
        #expect(result.status == 0, "\(result.stdout)")
        let rows = result.stdout.split(separator: "\n").filter { $0.hasPrefix("many-listed ") }
        #expect(rows.count == 2 && rows.allSatisfy { $0.hasSuffix(" ok") }, "\(result.stdout)")
    }

    /// The checks can fail: a `diag` that exits 1, leaves a folder in the cache and writes a raw
    /// escape and the bundle's marker fails every one of them.
    @Test func aDiagThatBreaksTheRulesFailsTheRun() throws {
        let folder = try TemporaryDirectory("diag-hostile-script")
        let fake = folder.file("diag")
        try """
            #!/bin/sh
            mkdir -p "$XDG_CACHE_HOME/diag/bundles/.unpack-1-left"
            printf 'BUNDLE-SQL-WAS-EVALUATED \\033]0;title\\007\\n' >&2
            exit 1
            """.write(to: fake, atomically: true, encoding: .utf8)
        chmod(fake.path, 0o755)
        let result = try run("/bin/bash", [Self.script, "--small"], environment: ["DIAG": fake.path, "CASES": "good"])
        #expect(result.status != 0)
        let rows = result.stdout.split(separator: "\n").filter { $0.hasPrefix("good ") }
        #expect(rows.count == 2, "\(result.stdout)")
        for row in rows {
            #expect(row.hasSuffix("FAIL: exit 1, not 0;left: .unpack-1-left;raw control character;the bundle's SQL ran"), "\(row)")
        }
        #expect(result.stdout.contains("1 cases, 2 commands, 2 failed"), "\(result.stdout)")
    }
}
