import Foundation
import Testing
import TestSupport

/// The command line itself: help, version, and bad usage (exit 64).
@Suite struct UsageAndHelpTests {
    @Test func helpSubcommandEqualsHelpFlag() throws {
        let viaHelp = try diag(["help", "show"])
        let viaFlag = try diag(["show", "--help"])
        #expect(viaHelp.status == 0)
        #expect(viaHelp.stdout == viaFlag.stdout)
        for section in ["OVERVIEW: Show log records", "USAGE: diag show [<options>] [<source> ...]", "ARGUMENTS:", "OPTIONS:", "--predicate <predicate>", "--style <style>", "(values: default, compact, syslog,"] {
            #expect(viaHelp.stdout.contains(section), "missing \(section)")
        }
    }

    @Test func rootHelpListsTheSubcommands() throws {
        let output = try diag(["--help"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("SUBCOMMANDS:"))
        for name in ["show", "import", "generate", "index"] {
            #expect(output.stdout.contains("\n  \(name) "), "missing \(name)")
        }
        #expect(try diag([]).stdout == output.stdout)
        #expect(try diag(["help"]).stdout == output.stdout)
    }

    @Test func versionIsPrinted() throws {
        let output = try diag(["--version"])
        #expect(output.status == 0)
        #expect(output.stdout.hasPrefix("diag "))
    }

    @Test(arguments: [
        (["show", "--bogus"], "Error: Unknown option '--bogus'"),
        (["show", "--style", "fancy"], "Error: The value 'fancy' is invalid for '--style <style>'; accepted values: 'default', 'compact', 'syslog', 'json', 'ndjson'"),
        (["show", "--color", "pink"], "Error: The value 'pink' is invalid for '--color <color>'"),
        (["show", "--predicate"], "Error: Missing value for '--predicate <predicate>'"),
        (["show", "--predicate", "a == 1", "--predicate-file", "f"], "Error: --predicate and --predicate-file cannot be used together"),
        (["show", "--start", "tomorrow"], "Error: The value 'tomorrow' is invalid for '--start'"),
        (["show", "--last", "5w"], "Error: The value '5w' is invalid for '--last <duration|boot>'"),
        (["show", "--last", "5m", "--start", "2026-01-01"], "Error: --last and --start cannot be used together"),
        (["show", "--start", "2026-02-01", "--end", "2026-01-01"], "Error: --end"),
        (["show", "--timezone", "Mars/Base"], "Error: The value 'Mars/Base' is invalid for '--timezone <zone>'"),
        (["show", "--var", "NOVALUE"], "Error: The value 'NOVALUE' is invalid for '--var <name=value>'"),
        (["show", "--var", "1X=2"], "Error: The variable name '1X'"),
        (["show", "--year", "12"], "Error: The value '12' is invalid for '--year <year>'"),
        (["import"], "Error: Missing expected argument '<file> ...'"),
        (["generate"], "Error: Missing expected argument '--count <count>'"),
        (["generate", "--count", "-1"], "Error: The value '-1' is invalid for '--count <count>'"),
        (["frobnicate"], "Error: Unknown subcommand 'frobnicate'"),
        (["help", "frobnicate"], "Error: Unknown subcommand 'frobnicate'"),
    ])
    func badUsageExits64WithUsage(arguments: [String], message: String) throws {
        let output = try diag(arguments)
        #expect(output.status == 64)
        #expect(output.stdout == "")
        #expect(output.stderr.hasPrefix(message), "stderr: \(output.stderr)")
        let lines = output.stderr.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.dropFirst().first?.hasPrefix("Usage: diag") == true)
        let command = arguments.first.map { ["show", "import", "generate"].contains($0) ? "diag \($0)" : "diag" } ?? "diag"
        #expect(lines.last == "See '\(command) --help' for more information.")
    }
}
