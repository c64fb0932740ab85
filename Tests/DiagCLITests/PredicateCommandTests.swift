import Foundation
import Testing
import TestSupport

/// `diag predicate check|explain`, run as a user runs them.
@Suite("diag predicate")
struct PredicateCommandTests {
    let diag = BuiltProducts.path("diag")

    @Test func checkPrintsTheNormalisedPredicate() throws {
        let output = try run(diag, ["predicate", "check", #"process = "apsd" and message contains[CD] 'push'"#])
        #expect(output.status == 0)
        #expect(output.stdout == "process == \"apsd\" AND message CONTAINS[cd] \"push\"\n")
        #expect(output.stderr.isEmpty)
    }

    @Test func checkBindsVariables() throws {
        let output = try run(diag, ["predicate", "check", "processID > $PID", "--var", "PID=100"])
        #expect(output.status == 0)
        #expect(output.stdout == "processID > 100\n")
    }

    @Test func checkRefusesWithACaretAndStatus65() throws {
        let output = try run(diag, ["predicate", "check", #"process == "apsd" AND proces == "x""#])
        #expect(output.status == 65)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr == """
            Error: unknown field 'proces' — did you mean 'process'? (column 23)
              process == "apsd" AND proces == "x"
                                    ^

            """)
        let unbound = try run(diag, ["predicate", "check", "process == $P"])
        #expect(unbound.status == 65)
        #expect(unbound.stderr.contains("pass --var P=VALUE"))
    }

    @Test func explainShowsSQLAndResidual() throws {
        let output = try run(diag, ["predicate", "explain", #"process == "apsd" AND message CONTAINS[cd] "push""#])
        #expect(output.status == 0)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("SQL (narrows the records): WHERE process = ?"))
        #expect(lines.contains("  bound values: \"apsd\""))
        #expect(lines.contains("  index: records_process(process, timestamp)"))
        #expect(lines.contains { $0.hasPrefix("message search: \"push\"") })
        #expect(lines.contains("per record (Swift): message CONTAINS[cd] \"push\""))
    }

    @Test func explainAgainstALogFile() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("app.ndjson")
        try Data(#"{"timestamp":"2026-11-29 09:40:01.000000+0000","messageType":"Default","process":"apsd","eventMessage":"push"}"#.utf8).write(to: file)
        let output = try run(diag, ["predicate", "explain", "messageType == error", file.path])
        #expect(output.status == 0)
        #expect(output.stdout.contains("source: log file \(file.path): every record is read"))
        let bad = try run(diag, ["predicate", "explain", "messageType == bogus", file.path])
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("unknown value 'bogus' for messageType"))
    }
}
