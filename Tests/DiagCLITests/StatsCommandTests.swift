import Foundation
import Testing
import TestSupport

/// `diag stats` on plain files (counted record by record) and on bad input.
struct StatsCommandTests {
    static let records = """
        {"timestamp":"2026-11-29 09:40:01.000000+0000","messageType":"Default","process":"transport","sender":"transport","eventMessage":"uploaded batch 1"}
        {"timestamp":"2026-11-29 09:40:02.000000+0000","messageType":"Error","process":"transport","sender":"transport","eventMessage":"throttled"}
        {"timestamp":"2026-11-29 09:41:05.000000+0000","messageType":"Info","process":"notifier","eventMessage":"push é"}
        not a record at all
        {"timestamp":"2026-11-29 09:42:00.000000+0000","messageType":"Debug","process":"sync-core","sender":"CoreData","eventMessage":"saved"}

        """

    func diag(_ arguments: [String]) throws -> ProcessOutput {
        try run(BuiltProducts.path("diag"), arguments)
    }

    @Test func plainFileIsCountedByStreamingPerGroupAndMinute() throws {
        let directory = try TemporaryDirectory("stats")
        let file = try directory.write("log.ndjson", Self.records)
        let output = try diag(["stats", file, "--style", "json", "--count", "all"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(object["method"] as? String == "streamed")
        #expect((object["reason"] as? String)?.contains("plain log file") == true)
        let totals = try #require(object["totals"] as? [String: Int])
        #expect(totals["events"] == 4, "the refused line is not counted")
        #expect(totals["bytes"] == "uploaded batch 1".utf8.count + "throttled".utf8.count + "push é".utf8.count + "saved".utf8.count)
        let minutes = try #require(object["minutes"] as? [[String: Any]])
        #expect(minutes.map { $0["minute"] as? String } == ["2026-11-29 09:40", "2026-11-29 09:41", "2026-11-29 09:42"])
        #expect(minutes.map { $0["events"] as? Int } == [2, 1, 1])
        let senders = try #require(object["senders"] as? [[String: Any]])
        #expect(senders.contains { $0["name"] is NSNull && $0["events"] as? Int == 1 }, "records without a sender count as null")
        #expect(output.stderr.contains("refused"))

        let byBytes = try diag(["stats", file, "--sort", "bytes", "--count", "1", "--predicate", "process != \"sync-core\""])
        #expect(byBytes.status == 0)
        #expect(byBytes.stdout.contains("Total: 3 events"))
        #expect(byBytes.stdout.contains("Processes (top 1 by bytes):\n      events        bytes  name\n           2           25  transport\n"))
    }

    @Test func badArgumentsAndPredicatesAreRefused() throws {
        let directory = try TemporaryDirectory("stats-bad")
        let file = try directory.write("log.ndjson", Self.records)
        let cases: [([String], Int32, String)] = [
            (["stats", file, "--count", "-2"], 64, "--count"),
            (["stats", file, "--count", "lots"], 64, "'lots'"),
            (["stats", file, "--style", "xml"], 64, "xml"),
            (["stats", file, "--sort", "size"], 64, "size"),
            (["stats", file, "--predicate", "process == "], 65, "process"),
            (["stats", file, "--predicate", "process == $NOPE"], 65, "NOPE"),
            (["stats", file, "--predicate", "x", "--predicate-file", file], 64, "cannot be used together"),
            (["stats", directory.file("missing").path], 65, "no such file"),
        ]
        for (arguments, status, text) in cases {
            let output = try diag(arguments)
            #expect(output.status == status, "\(arguments): \(output.stderr)")
            #expect(output.stderr.contains(text), "\(arguments): \(output.stderr)")
        }
    }
}
