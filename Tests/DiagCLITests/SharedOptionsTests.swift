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

    /// The help of each command, its runs of blanks and newlines made one space (the wrapping
    /// depends on where an option's text starts).
    func flatHelp(_ command: [String]) throws -> String {
        let help = try diag(command + ["--help"]).stdout
        return help.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    /// show, stream and fleet show print records through `OutputOptions`: the same --style and
    /// --color rows, and --timezone's one rule (bundle only where SOURCEs are read).
    @Test func recordPrintersShareTheOutputRows() throws {
        func rows(_ command: [String]) throws -> [Substring] {
            let help = try diag(command + ["--help"]).stdout
            return help.split(separator: "\n").filter { $0.hasPrefix("  --style") || $0.hasPrefix("  --color") || $0.hasPrefix("  --timezone") }
        }
        let show = try rows(["show"])
        #expect(show.count == 3)
        #expect(try rows(["stream"]) == show)
        #expect(try rows(["fleet", "show"]) == show)
        #expect(try flatHelp(["show"]).contains("or bundle (the zone of the machine that collected the bundle SOURCE)"))
        #expect(try !flatHelp(["stream"]).contains("or bundle"))
    }

    /// Every --timezone says the rule TimezoneArgument follows: without the option, $TZ, else
    /// /etc/localtime, else UTC (some said "$TZ, else UTC", which skipped the system's zone).
    @Test(arguments: [["show"], ["stream"], ["stats"], ["export"], ["signposts"], ["patterns"], ["diff"],
                      ["collect"], ["feedback"], ["fleet", "show"], ["fleet", "stats"]])
    func everyTimezoneHelpStatesTheOneRule(command: [String]) throws {
        let help = try flatHelp(command)
        #expect(help.contains("in this zone: local (the default: $TZ, else /etc/localtime, else UTC), UTC, a name (Europe/Paris)"), "\(command): \(help)")
        #expect(!help.contains("$TZ, else UTC"), "\(command): \(help)")
    }

    /// stats and export take --process and --sender from the shared group, every level included.
    @Test func exportAndStatsNarrowByProcessAndSender() throws {
        let folder = try TemporaryDirectory("shared-origin")
        let file = try folder.write("records.ndjson", Fixtures.appleNDJSON)
        func exported(_ options: [String]) throws -> Int {
            let output = try diag(["export", "--format", "ndjson"] + options + [file])
            #expect(output.status == 0, "stderr: \(output.stderr)")
            return output.stdout.split(separator: "\n").count
        }
        #expect(try exported([]) == 3)
        #expect(try exported(["--sender", "libTransport.dylib"]) == 3)
        #expect(try exported(["--sender", "libOther.dylib"]) == 0)
        #expect(try exported(["--process", "other"]) == 0)
        let counted = try diag(["stats", "--style", "json", "--sender", "libOther.dylib", file])
        #expect(counted.status == 0, "stderr: \(counted.stderr)")
        #expect(counted.stdout.contains("\"events\":0") || counted.stdout.contains("\"events\" : 0"), "stdout: \(counted.stdout)")
    }
}
