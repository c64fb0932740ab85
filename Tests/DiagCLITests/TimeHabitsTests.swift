import Foundation
import Testing
import TestSupport

/// The time rules `log` and journalctl users expect (README, "Time"): `--last` counts back from
/// the end of what is read, every typed time is read in one zone, and the default zone is the
/// machine's.
@Suite struct TimeHabitsTests {
    /// Three records at 10:00, 10:04 and 10:06 UTC on 2026-11-29, long before any test runs.
    static let threeRecords = ["10:00:00", "10:04:00", "10:06:00"].enumerated().map { index, time in
        #"{"timestamp":"2026-11-29 \#(time).000000+0000","eventMessage":"record \#(index + 1)","messageType":"Default","process":"p"}"#
    }.joined(separator: "\n") + "\n"

    private func messages(_ output: ProcessOutput) -> [String] {
        output.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["eventMessage"] as? String
        }
    }

    /// A bundle of `threeRecords`, collected in `zone`.
    private func bundle(in folder: TemporaryDirectory, zone: String = "UTC") throws -> String {
        let file = try folder.write("three.ndjson", Self.threeRecords)
        let store = folder.file("store").path
        let imported = try diag(["import", "--store", store, file])
        #expect(imported.status == 0, "\(imported.stderr)")
        let collected = try diag(["collect", "--store", store, "--output", folder.path], environment: ["TZ": zone])
        #expect(collected.status == 0, "\(collected.stderr)")
        return try #require(collected.stdout.split(separator: "\n").last).description
    }

    @Test func lastOnAFileCountsBackFromItsNewestRecord() throws {
        let folder = try TemporaryDirectory("diag-last-file")
        let file = try folder.write("three.ndjson", Self.threeRecords)
        let shown = try diag(["show", "--last", "5m", "--style", "ndjson", file])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(messages(shown) == ["record 2", "record 3"])
        // A bare number is seconds, as the error for a bad unit says.
        #expect(messages(try diag(["show", "--last", "300", "--style", "ndjson", file])) == ["record 2", "record 3"])
        let bad = try diag(["show", "--last", "5x", file])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("a positive number of seconds, or followed by s, m, h or d"))
        #expect(bad.stderr.contains("or boot"))
        let help = try diag(["show", "--help"])
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("Counted back from the newest record of the SOURCEs, or from now for the default store."))
    }

    @Test func lastOnABundleCountsBackFromItsNewestRecord() throws {
        let folder = try TemporaryDirectory("diag-last-bundle")
        let bundle = try bundle(in: folder)
        #expect(messages(try diag(["show", "--last", "5m", "--style", "ndjson", bundle])) == ["record 2", "record 3"])
        #expect(messages(try diag(["export", "--format", "ndjson", "--last", "1m", bundle])) == ["record 3"])
        let stats = try diag(["stats", "--last", "5m", bundle])
        #expect(stats.stdout.contains("Total: 2 events"), "\(stats.stdout)")
    }

    @Test func lastOnTheDefaultStoreCountsFromNowAndBoot() throws {
        let folder = try TemporaryDirectory("diag-last-boot")
        let now = Date().timeIntervalSince1970
        let bootLine = try #require(try String(contentsOfFile: "/proc/stat", encoding: .utf8).split(separator: "\n").first { $0.hasPrefix("btime ") })
        let boot = try #require(Double(bootLine.split(separator: " ")[1]))
        func record(_ seconds: Double, _ message: String) -> String {
            #"{"timestamp":"@","eventMessage":"\#(message)","messageType":"Default","process":"p"}"#
                .replacingOccurrences(of: "\"@\"", with: "\(Int64(seconds * 1e9))")
        }
        let file = try folder.write("records.ndjson", [
            record(boot - 7200, "before boot"), record(now - 7200, "two hours ago"), record(now - 30, "just now"),
        ].joined(separator: "\n") + "\n")
        let store = folder.file("store").path
        #expect(try diag(["import", "--store", store, file]).status == 0)
        let live = ["DIAG_STORE": store]
        #expect(messages(try diag(["show", "--last", "10m", "--style", "ndjson"], environment: live)) == ["just now"])
        let sinceBoot = messages(try diag(["show", "--last", "boot", "--style", "ndjson"], environment: live))
        #expect(!sinceBoot.contains("before boot"))
        #expect(sinceBoot.contains("just now"))
        // A SOURCE's records say nothing of this machine's boot.
        let refused = try diag(["show", "--last", "boot", store])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--last boot reads the default store"))
    }

    @Test func predicateDatesAreReadInTheZoneOfStartAndEnd() throws {
        let folder = try TemporaryDirectory("diag-predicate-zone")
        let file = try folder.write("three.ndjson", Self.threeRecords)
        let paris = ["TZ": "Europe/Paris"]
        let started = messages(try diag(["show", "--start", "2026-11-29 11:04:00", "--style", "ndjson", file], environment: paris))
        let predicated = messages(try diag(["show", "--predicate", #"timestamp >= "2026-11-29 11:04:00""#, "--style", "ndjson", file], environment: paris))
        #expect(started == ["record 2", "record 3"])
        #expect(predicated == started)
        // --timezone wins over $TZ for both; a literal with its own zone keeps it.
        let tokyo = ["show", "--timezone", "Asia/Tokyo", "--style", "ndjson", file]
        #expect(messages(try diag(tokyo + ["--predicate", #"timestamp > "2026-11-29 19:05:00""#], environment: paris)) == ["record 3"])
        #expect(messages(try diag(tokyo + ["--predicate", #"timestamp > "2026-11-29 10:05:00Z""#], environment: paris)) == ["record 3"])
        let store = folder.file("store").path
        #expect(try diag(["import", "--store", store, file]).status == 0)
        #expect(messages(try diag(["show", "--predicate", #"timestamp < "2026-11-29 11:01:00""#, "--style", "ndjson", store], environment: paris)) == ["record 1"])
        let stats = try diag(["stats", "--predicate", #"timestamp < "2026-11-29 11:05:00""#, store], environment: paris)
        #expect(stats.stdout.contains("Total: 2 events"), "\(stats.stdout)")
    }

    @Test func theDefaultZoneIsTheSystemsAndUTCIsOneFlagAway() throws {
        let folder = try TemporaryDirectory("diag-system-zone")
        let file = try folder.write("three.ndjson", Self.threeRecords)
        // What this machine's /etc/localtime names (UTC when it names none), read here on our own.
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime")) ?? ""
        let name = target.range(of: "zoneinfo/").map { String(target[$0.upperBound...]) } ?? "UTC"
        let zone = try #require(TimeZone(identifier: name) ?? TimeZone(identifier: "UTC"))
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_795_946_400))
        let expected = String(format: "%@%02d%02d", offset < 0 ? "-" : "+", abs(offset) / 3600, abs(offset) / 60 % 60)
        let withoutTZ = try run("/usr/bin/env", ["-u", "TZ", BuiltProducts.path("diag"), "show", "--style", "json", file])
        #expect(withoutTZ.status == 0, "\(withoutTZ.stderr)")
        #expect(withoutTZ.stdout.contains("\(expected)\""), "expected times in \(name) (\(expected)): \(withoutTZ.stdout.prefix(300))")
        let local = try run("/usr/bin/env", ["-u", "TZ", BuiltProducts.path("diag"), "show", "--style", "json", "--timezone", "local", file])
        #expect(local.stdout == withoutTZ.stdout)
        let utc = try diag(["show", "--style", "compact", "--timezone", "UTC", file], environment: ["TZ": "America/New_York"])
        #expect(utc.stdout.contains("2026-11-29 10:06:00.000 Df p[0:0] record 3"))
        let localTZ = try diag(["show", "--style", "compact", "--timezone", "local", file], environment: ["TZ": "America/New_York"])
        #expect(localTZ.stdout.contains("2026-11-29 05:06:00.000 Df p[0:0] record 3"))
    }

    @Test func aBundleRecordsItsZoneAndTimezoneBundleShowsIt() throws {
        let folder = try TemporaryDirectory("diag-bundle-zone")
        let bundle = try bundle(in: folder, zone: "Asia/Tokyo")
        let shown = try diag(["show", "--timezone", "bundle", "--style", "compact", bundle], environment: ["TZ": "Europe/Paris"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("2026-11-29 19:06:00.000 Df p[0:0] record 3"))
        let file = try folder.write("plain.ndjson", Self.threeRecords)
        let refused = try diag(["show", "--timezone", "bundle", file])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--timezone bundle needs a bundle SOURCE"))
    }

    /// The analysis commands take `--timezone bundle` as show does: the zone the bundle SOURCE
    /// recorded, for the times they print and for the `--start` they read (before, they said
    /// it "needs a bundle SOURCE" with one given). 19:05 in Tokyo is 10:05 UTC: only record 3
    /// is after it; read in Paris (TZ) it would be 18:05 UTC, after all three.
    @Test func theAnalysisCommandsTakeTheBundlesZoneToo() throws {
        let folder = try TemporaryDirectory("diag-bundle-zone-analysis")
        let bundle = try bundle(in: folder, zone: "Asia/Tokyo")
        let paris = ["TZ": "Europe/Paris"]
        let patterns = try diag(["patterns", "--timezone", "bundle", "--start", "2026-11-29 19:05:00", bundle], environment: paris)
        #expect(patterns.status == 0, "\(patterns.stderr)")
        #expect(patterns.stdout.contains("2026-11-29 19:06:00.000") && !patterns.stdout.contains("19:04:00"), "\(patterns.stdout)")
        let diff = try diag(["diff", "--timezone", "bundle", "--start", "2026-11-29 19:05:00", "--style", "json", bundle, bundle], environment: paris)
        #expect(diff.status == 0, "\(diff.stderr)")
        let sides = try #require(try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: Any], "\(diff.stdout)")
        #expect((sides["base"] as? [String: Any])?["records"] as? Int == 1, "\(diff.stdout)")
        let signposts = try diag(["signposts", "--timezone", "bundle", "--start", "2026-11-29 19:05:00", bundle], environment: paris)
        #expect(signposts.status == 0, "\(signposts.stderr)")
        let file = try folder.write("plain.ndjson", Self.threeRecords)
        for command in [["patterns"], ["signposts"], ["diff", file]] {
            let refused = try diag(command + ["--timezone", "bundle", file])
            #expect(refused.status == 64 && refused.stderr.contains("--timezone bundle needs a bundle SOURCE"), "\(command): \(refused.stderr)")
        }
    }
}
