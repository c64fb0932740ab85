import Foundation
import Testing
import TestSupport

/// Issue 13, item 8: a predicate that `diag predicate check` accepts runs on every source, however
/// many terms (999 was already past SQLite's expression depth) and however deep: a store, a
/// bundle, a plain file and the fleet's PostgreSQL all show the same records, exit 0.
@Suite("Large and deep predicates on every source", .serialized)
struct LargePredicateSourcesTests {
    /// Thread IDs of every 40th generated record, read from the file the store was imported from.
    static func threadIDs(_ fixture: FleetFixture) throws -> [Int64] {
        let text = try String(contentsOf: fixture.folder.file("generated.ndjson"), encoding: .utf8)
        let lines = text.split(separator: "\n")
        return try stride(from: 0, to: lines.count, by: 40).map { index in
            let object = try JSONSerialization.jsonObject(with: Data(lines[index].utf8)) as? [String: Any]
            return try #require(object?["threadID"] as? Int64)
        }
    }

    static func cases(_ threads: [Int64]) -> [(name: String, text: String)] {
        LargePredicates.termCounts.map { ("OR of \($0)", LargePredicates.disjunction($0, threadIDs: threads)) } + [
            ("AND of 5000", LargePredicates.conjunction(5_000, threadIDs: threads)),
            ("IN of 20000", LargePredicates.aggregate(20_000, threadIDs: threads)),
            ("256 NOT", LargePredicates.negations(256)),
            ("256 groups", LargePredicates.nestedGroups(256, threadIDs: threads)),
        ]
    }

    @Test func everySourceShowsTheSameRecords() throws {
        let fixture = try FleetFixture.shared()
        let store = fixture.folder.file("generated.logarchive").path
        let file = fixture.folder.file("generated.ndjson").path
        let show = ["show", "--info", "--debug", "--signpost", "--style", "ndjson"]
        for (name, text) in Self.cases(try Self.threadIDs(fixture)) {
            // Past the kernel's 128 KiB bound on one argument: the file form, as a user would.
            let predicateFile = try fixture.folder.write("predicate.txt", text)
            if text.utf8.count < 100_000 {
                let check = try fixture.diag(["predicate", "check", text])
                #expect(check.status == 0, "\(name): predicate check: \(check.stderr.prefix(300))")
            }
            let fromFile = try fixture.diag(show + ["--predicate-file", predicateFile, file])
            #expect(fromFile.status == 0, "\(name) on the file: \(fromFile.stderr.prefix(300))")
            let count = fromFile.stdout.split(separator: "\n").count
            #expect(count > 0 && count < 3_000, "\(name) selects \(count) of 3000")
            for (source, path) in [("store", store), ("bundle", fixture.bundles[0])] {
                let output = try fixture.diag(show + ["--predicate-file", predicateFile, path])
                #expect(output.status == 0, "\(name) on the \(source): \(output.stderr.prefix(300))")
                #expect(output.stdout == fromFile.stdout, "\(name) on the \(source)")
            }
            // Without --signpost (and with --activity) diag wraps the predicate in its own
            // conditions: a predicate at the parser's 256 levels still runs.
            let wrapped = try fixture.diag(["show", "--style", "ndjson", "--activity", "0x1", "--predicate-file", predicateFile, store])
            #expect(wrapped.status == 0, "\(name) wrapped: \(wrapped.stderr.prefix(300))")
            let local = try fixture.diag(show + ["--predicate-file", predicateFile] + fixture.bundles)
            let fleet = try fixture.diag(["fleet", "show", "--database", fixture.databaseURL] + show.dropFirst() + ["--predicate-file", predicateFile])
            #expect(fleet.status == 0 && local.status == 0, "\(name) in the fleet: \(fleet.stderr.prefix(300))\(local.stderr.prefix(300))")
            #expect(fleet.stdout == local.stdout, "\(name) in the fleet")
        }
    }
}
