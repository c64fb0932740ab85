import Foundation
import Testing
import TestSupport

/// The options declared once in DiagCLI/Options and used by several commands: each command that
/// takes them answers the same way, through the built `diag`.
@Suite struct SharedOptionsTests {
    /// The commands whose --predicate, --predicate-file and --var come from `PredicateOptions`.
    /// (`export` needs its --format before anything else is looked at.)
    static let predicateCommands: [[String]] = [["show"], ["stats"], ["export", "--format", "ndjson"], ["signposts"], ["fleet", "show"], ["fleet", "stats"]]

    @Test(arguments: predicateCommands)
    func predicateAndPredicateFileAreRefusedTogether(command: [String]) throws {
        let output = try diag(command + ["--predicate", "a == 1", "--predicate-file", "f"])
        #expect(output.status == 64)
        #expect(output.stderr.hasPrefix("Error: --predicate and --predicate-file cannot be used together\nUsage: diag \(command.prefix { !$0.hasPrefix("-") }.joined(separator: " "))"),
                "stderr: \(output.stderr)")
    }

    @Test(arguments: predicateCommands)
    func badVariablesAreRefusedWithTheValueAndTheAcceptedForm(command: [String]) throws {
        let novalue = try diag(command + ["--var", "NOVALUE"])
        #expect(novalue.status == 64)
        #expect(novalue.stderr.hasPrefix("Error: The value 'NOVALUE' is invalid for '--var <name=value>'; accepted: NAME=VALUE"), "stderr: \(novalue.stderr)")
        let badName = try diag(command + ["--var", "1X=2"])
        #expect(badName.status == 64)
        #expect(badName.stderr.hasPrefix("Error: The variable name '1X' in '--var 1X=2' is invalid"), "stderr: \(badName.stderr)")
    }

    @Test(arguments: predicateCommands)
    func helpListsThePredicateOptionsInTheirPlace(command: [String]) throws {
        let help = try diag(command + ["--help"]).stdout
        let rows = ["--predicate <predicate>", "--predicate-file <file>", "--var <name=value>"].map { help.range(of: "  " + $0) }
        #expect(rows.allSatisfy { $0 != nil }, "help: \(help)")
        #expect(rows.compactMap { $0?.lowerBound } == rows.compactMap { $0?.lowerBound }.sorted())
        #expect(help.contains("records that match this predicate\n                          (NSPredicate format, as log show)."))
    }

    @Test func didYouMeanFindsAGroupedOption() throws {
        let output = try diag(["stats", "--predicat", "x"])
        #expect(output.status == 64)
        #expect(output.stderr.hasPrefix("Error: Unknown option '--predicat' (did you mean '--predicate'?)"), "stderr: \(output.stderr)")
    }

    @Test func aVariableGivenInTheGroupReachesThePredicate() throws {
        let folder = try TemporaryDirectory("shared-var")
        let file = try folder.write("records.ndjson", Fixtures.appleNDJSON)
        let output = try diag(["stats", file, "--predicate", "messageType == $LEVEL", "--var", "LEVEL=error", "--style", "json"])
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(output.stdout.contains("\"events\":1") || output.stdout.contains("\"events\" : 1"), "stdout: \(output.stdout)")
    }

    @Test func filterOptionsSelectThroughTheGroup() throws {
        let folder = try TemporaryDirectory("shared-filter")
        let file = try folder.write("records.ndjson", Fixtures.appleNDJSON)
        func count(_ options: [String]) throws -> Int {
            let output = try diag(["show", "--style", "ndjson"] + options + [file])
            #expect(output.status == 0, "stderr: \(output.stderr)")
            return output.stdout.split(separator: "\n").count
        }
        #expect(try count([]) == 2)
        #expect(try count(["--debug"]) == 3)
        #expect(try count(["--debug", "--process", "transport"]) == 3)
        #expect(try count(["--debug", "--process", "other"]) == 0)
        #expect(try count(["--sender", "libTransport.dylib"]) == 2)
        #expect(try count(["--sender", "libOther.dylib"]) == 0)
    }

    /// collect and feedback take the bundle's options from one group: the same rows in both helps
    /// (feedback's --last said less than it takes: a bare number of seconds and boot).
    @Test func collectAndFeedbackShareTheBundleRows() throws {
        func rows(_ command: String) throws -> [Substring] {
            let help = try diag([command, "--help"]).stdout
            let start = try #require(help.range(of: "  --output <dir-or-file>"))
            let end = try #require(help.range(of: "  --store <dir>"))
            return help[start.lowerBound..<end.upperBound].split(separator: "\n")
        }
        let collect = try rows("collect")
        #expect(collect.count >= 8)
        #expect(try rows("feedback") == collect)
        #expect(collect.joined(separator: "\n").contains("or boot."))
    }

    @Test(arguments: [["stats"], ["fleet", "stats"]])
    func statsTableCountIsCheckedByItsGroup(command: [String]) throws {
        for bad in ["0", "many"] {
            let output = try diag(command + ["--count", bad])
            #expect(output.status == 64)
            #expect(output.stderr.hasPrefix("Error: The value '\(bad)' is invalid for '--count <n|all>'; accepted: a positive number or all"),
                    "stderr: \(output.stderr)")
        }
    }
}
