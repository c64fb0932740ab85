import Foundation
import Testing
import TestSupport

/// `diag show --patterns`, `--pattern ID` and `diag patterns`, run as a user runs them, on each
/// kind of source: a plain file, a store, a bundle.
@Suite struct PatternCommandTests {
    /// One generated data set as the three kinds of source.
    struct Sources {
        let folder: TemporaryDirectory
        let file: String
        let store: String
        let bundle: String
        let environment: [String: String]

        init() throws {
            folder = try TemporaryDirectory("diag-patterns")
            environment = ["XDG_CACHE_HOME": folder.file("cache").path, "DIAG_SOCKET": folder.file("no-daemon.sock").path]
            file = folder.file("g.ndjson").path
            #expect(try diag(["generate", "--count", "3000", "--seed", "5", "--output", file]).status == 0)
            store = folder.file("store").path
            #expect(try diag(["import", "--store", store, file]).status == 0)
            let collected = try diag(["collect", "--store", store, "--output", folder.path], environment: environment)
            #expect(collected.status == 0, "\(collected.stderr)")
            bundle = try #require(collected.stdout.split(separator: "\n").last).description
        }
    }

    static func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        }
    }

    @Test func everySourceKindGetsPatternFieldsThatAgreeWithDiagPatterns() throws {
        let sources = try Sources()
        var annotations: [[String]] = []
        for source in [sources.file, sources.store, sources.bundle] {
            let shown = try diag(["show", "--info", "--patterns", "--style", "ndjson", source], environment: sources.environment)
            #expect(shown.status == 0, "\(source): \(shown.stderr)")
            let records = try Self.objects(shown.stdout)
            let plain = try diag(["show", "--info", "--style", "ndjson", source], environment: sources.environment)
            #expect(records.count == plain.stdout.split(separator: "\n").count && records.count > 1000, "\(source): \(records.count) records")
            var counts: [String: Int] = [:]
            for record in records {
                let id = try #require(record["patternID"] as? String)
                let pattern = try #require(record["pattern"] as? String)
                #expect(id == PatternIDOf(pattern))
                counts[id, default: 0] += 1
            }
            annotations.append(records.map { "\($0["patternID"]!)" })
            // The counts of diag patterns over the same source are those of the annotations.
            let listed = try diag(["patterns", "--info", "--style", "ndjson", source], environment: sources.environment)
            #expect(listed.status == 0, "\(listed.stderr)")
            var listedCounts: [String: Int] = [:]
            for pattern in try Self.objects(listed.stdout) {
                let id = try #require(pattern["patternID"] as? String)
                listedCounts[id] = try #require(pattern["count"] as? Int)
                for key in ["pattern", "first", "last", "messageTypes", "processes", "sample"] { #expect(pattern[key] != nil, "\(key) missing") }
            }
            #expect(counts == listedCounts, "\(source)")
        }
        // The same records give the same IDs whatever the source.
        #expect(annotations[0] == annotations[1])
        #expect(annotations[1] == annotations[2])
    }

    @Test func textStylesBeginWithTheID() throws {
        let folder = try TemporaryDirectory("diag-patterns-text")
        let file = try folder.write("a.ndjson", """
            {"timestamp":1700000000000000000,"process":"p","eventMessage":"retry 1 of 3"}
            {"timestamp":1700000001000000000,"process":"p","eventMessage":"retry 2 of 3"}

            """)
        let output = try diag(["show", "--patterns", "--style", "compact", file])
        #expect(output.status == 0)
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("Pattern    Timestamp") == true)
        let id = PatternIDOf("retry <*> of <*>")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(id + " ") })
        #expect(lines.count == 3)
    }

    @Test func patternIDSelectsExactlyTheRecordsAnnotatedWithIt() throws {
        let sources = try Sources()
        let all = try Self.objects(try diag(["show", "--info", "--patterns", "--style", "ndjson", sources.store]).stdout)
        var byID: [String: [String]] = [:]
        for record in all { byID["\(record["patternID"]!)", default: []].append("\(record["timestampNanoseconds"]!) \(record["eventMessage"]!)") }
        let chosen = byID.keys.sorted().prefix(2)
        let selected = try diag(["show", "--info", "--style", "ndjson", sources.store] + chosen.flatMap { ["--pattern", $0] })
        #expect(selected.status == 0)
        let got = try Self.objects(selected.stdout).map { "\($0["timestampNanoseconds"]!) \($0["eventMessage"]!)" }
        let expected = all.filter { chosen.contains("\($0["patternID"]!)") }.map { "\($0["timestampNanoseconds"]!) \($0["eventMessage"]!)" }
        #expect(!got.isEmpty)
        #expect(got == expected)
    }

    @Test func aMalformedPatternIDIsBadUsage() throws {
        let output = try diag(["show", "--pattern", "not-an-id", "/nonexistent"])
        #expect(output.status == 64)
        #expect(output.stderr.contains("'not-an-id'") && output.stderr.contains("10 lower-case hex digits"))
    }

    @Test func theCapIsReportedNotSilent() throws {
        let folder = try TemporaryDirectory("diag-patterns-cap")
        var lines = ""
        for length in 1...6 { lines += "{\"timestamp\":\(1_700_000_000_000_000_000 + length),\"eventMessage\":\"tick\(String(repeating: " tock", count: length))\"}\n" }
        let file = try folder.write("a.ndjson", lines)
        let output = try diag(["patterns", "--max-patterns", "4", file])
        #expect(output.status == 0)
        #expect(output.stdout.contains("6 records, 4 patterns; 2 records beyond the cap of patterns, in none"))
        let json = try diag(["patterns", "--max-patterns", "4", "--style", "json", file])
        #expect(json.stderr.contains("2 records needed more than 4 patterns"))
    }
}

/// The ID `diag` gives a pattern text: FNV-1a 64 of its UTF-8, the first 40 bits in hex.
func PatternIDOf(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    let hex = String(hash >> 24, radix: 16)
    return String(repeating: "0", count: 10 - hex.count) + hex
}
