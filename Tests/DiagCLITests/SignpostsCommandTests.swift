import Foundation
import Testing
import TestSupport

/// `diag signposts` and `diag show --signpost`, run as a user would over an NDJSON file.
@Suite struct SignpostsCommandTests {
    /// A signpost record as our ndjson (Apple's field names); `ms` after 2027-01-15 08:00:00 UTC.
    static func line(_ type: String, _ name: String, id: Int64, ms: Int64, pid: Int = 10, tid: Int = 1,
                     process: String = "sync-core", scope: String = "process", message: String = "") -> String {
        let nanoseconds = 1_800_000_000_000_000_000 + ms * 1_000_000
        return #"{"timestampNanoseconds":\#(nanoseconds),"timestamp":"x","messageType":"Default","eventType":"signpostEvent","process":"\#(process)","processID":\#(pid),"threadID":\#(tid),"subsystem":"com.example.sync","category":"sync","eventMessage":"\#(message)","signpostID":\#(id),"signpostName":"\#(name)","signpostType":"\#(type)","signpostScope":"\#(scope)"}"#
    }

    static func log(_ ms: Int64, _ message: String) -> String {
        #"{"timestampNanoseconds":\#(1_800_000_000_000_000_000 + ms * 1_000_000),"messageType":"Default","eventType":"logEvent","process":"sync-core","processID":10,"eventMessage":"\#(message)"}"#
    }

    static func file(_ folder: TemporaryDirectory) throws -> String {
        let lines = [
            line("begin", "export", id: 1, ms: 0, message: "batch 1"),
            log(1, "plain record"),
            line("begin", "export", id: 2, ms: 2, message: "batch 2"),
            line("end", "export", id: 1, ms: 12, message: "done 1"),
            line("end", "export", id: 2, ms: 42, message: "done 2"),
            line("begin", "import", id: 7, ms: 50, tid: 1, scope: "thread", message: "t1"),
            line("begin", "import", id: 7, ms: 51, tid: 2, scope: "thread", message: "t2"),
            line("end", "import", id: 7, ms: 53, tid: 2, scope: "thread"),
            line("end", "import", id: 7, ms: 1550, tid: 1, scope: "thread"),
            line("event", "push received", id: 3, ms: 60),
            line("begin", "download", id: 9, ms: 70, message: "never ended"),
            line("end", "upload", id: 4, ms: 80, message: "never begun"),
        ]
        return try folder.write("signposts.ndjson", lines.joined(separator: "\n") + "\n")
    }

    @Test func pairsIntervalsAndReportsTheirStatisticsAsJSON() throws {
        let folder = try TemporaryDirectory("diag-signposts")
        let path = try Self.file(folder)
        let output = try diag(["signposts", "--intervals", "--style", "json", path])
        #expect(output.status == 0, "\(output.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let intervals = try #require(object["intervals"] as? [[String: Any]])
        #expect(intervals.count == 4)
        for interval in intervals {
            for key in ["name", "process", "start", "duration", "signpostID", "scope", "beginMessage", "endMessage"] {
                #expect(interval[key] != nil, "interval lacks \(key)")
            }
        }
        let imports = intervals.filter { $0["name"] as? String == "import" }
            .map { (($0["beginMessage"] as? String) ?? "", ($0["duration"] as? Double) ?? -1) }
        #expect(imports.count == 2)
        #expect(imports.contains { $0.0 == "t1" && abs($0.1 - 1.5) < 1e-9 })
        #expect(imports.contains { $0.0 == "t2" && abs($0.1 - 0.002) < 1e-9 })
        #expect(intervals.first { $0["name"] as? String == "import" }?["scope"] as? String == "thread")

        let names = try #require(object["names"] as? [[String: Any]])
        let export = try #require(names.first { $0["name"] as? String == "export" })
        #expect(export["count"] as? Int == 2)
        #expect(abs((export["total"] as? Double ?? 0) - 0.052) < 1e-9)
        #expect(abs((export["min"] as? Double ?? 0) - 0.012) < 1e-9)
        #expect(abs((export["max"] as? Double ?? 0) - 0.040) < 1e-9)
        #expect(abs((export["p50"] as? Double ?? 0) - 0.012) < 1e-9)
        #expect(abs((export["mean"] as? Double ?? 0) - 0.026) < 1e-9)
        let histogram = try #require(export["histogram"] as? [[String: Any]])
        #expect(histogram.map { $0["count"] as? Int } == [0, 0, 2, 0, 0, 0])
        // The slowest name by total comes first.
        #expect(names.first?["name"] as? String == "import")

        #expect(object["unmatchedBeginCount"] as? Int == 1)
        #expect(object["unmatchedEndCount"] as? Int == 1)
        #expect((object["unmatchedBegins"] as? [[String: Any]])?.first?["message"] as? String == "never ended")
        #expect((object["unmatchedEnds"] as? [[String: Any]])?.first?["message"] as? String == "never begun")
        #expect(object["eventCount"] as? Int == 1)
        #expect((object["events"] as? [[String: Any]])?.first?["name"] as? String == "push received")
    }

    @Test func theDefaultStyleShowsATablePerNameAndTheUnmatched() throws {
        let folder = try TemporaryDirectory("diag-signposts")
        let path = try Self.file(folder)
        let output = try diag(["signposts", path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("Intervals: 4 in 2 names; events: 1; unmatched: 1 begin, 1 end"))
        #expect(output.stdout.contains("import [com.example.sync:sync]"))
        #expect(output.stdout.contains("1.500 s"))
        #expect(output.stdout.contains("<1ms 0 | 1-10ms 0 | 10-100ms 2"))
        #expect(output.stdout.contains("Unmatched begins (never ended): 1"))
        #expect(output.stdout.contains("never begun"))
    }

    @Test func ndjsonHasOneTypedObjectPerLineAndFiltersApply() throws {
        let folder = try TemporaryDirectory("diag-signposts")
        let path = try Self.file(folder)
        let output = try diag(["signposts", "--style", "ndjson", "--intervals", "--predicate", "signpostName == 'export'", path])
        #expect(output.status == 0, "\(output.stderr)")
        let types = output.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["type"] as? String
        }
        #expect(types == ["interval", "interval", "name", "summary"])
    }

    @Test func showLeavesSignpostsOutUnlessAskedAsLogShowDoes() throws {
        let folder = try TemporaryDirectory("diag-signposts")
        let path = try Self.file(folder)
        func count(_ arguments: [String]) throws -> Int {
            let output = try diag(["show", "--style", "ndjson"] + arguments + [path])
            #expect(output.status == 0, "\(output.stderr)")
            return output.stdout.split(separator: "\n").count
        }
        #expect(try count([]) == 1)
        #expect(try count(["--no-signpost"]) == 1)
        #expect(try count(["--signpost"]) == 12)
        #expect(try count(["--signpost", "--predicate", "signpostScope == thread"]) == 4)
        #expect(try count(["--signpost", "--predicate", "signpostType == begin AND signpostIdentifier == 7"]) == 2)
        #expect(try count(["--signpost", "--predicate", "signpostName == 'export' AND signpostType == end"]) == 2)
        let both = try diag(["show", "--signpost", "--no-signpost", path])
        #expect(both.status == 64)
        #expect(both.stderr.contains("--signpost and --no-signpost cannot be used together"))
    }

    @Test func refusesAnOpenLimitOutOfRangeAndABadPredicate() throws {
        let limit = try diag(["signposts", "--open-limit", "0", "/dev/null"])
        #expect(limit.status == 64)
        #expect(limit.stderr.contains("'0' is invalid for '--open-limit <count>'"))
        let predicate = try diag(["signposts", "--predicate", "signpostScope == galaxy", "/dev/null"])
        #expect(predicate.status == 65)
        #expect(predicate.stderr.contains("thread, process, system"))
    }
}
