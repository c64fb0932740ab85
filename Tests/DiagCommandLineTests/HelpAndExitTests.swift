import Testing
@testable import DiagCommandLine

@Suite struct HelpAndExitTests {
    @Test func subcommandHelpHasEverySection() {
        let help = HelpGenerator(path: [Tool.self, ShowSample.self]).help
        #expect(help == """
            OVERVIEW: Show things from sources.

            USAGE: tool show [<options>] [<source> ...]

            ARGUMENTS:
              <source> ...            Where to read.

            OPTIONS:
              --predicate <predicate>
                                      A filter.
              --var <var>             A variable NAME=VALUE. (repeatable)
              --style <style>         The output style. (values: plain, fancy; default:
                                      plain)
              --timezone <timezone>   An offset.
              -n, --limit <limit>     How many. (default: 10)
              --info                  Include info records.
              -h, --help              Show help information.

            """)
    }

    @Test func rootHelpListsSubcommandsAndVersion() {
        let help = HelpGenerator(path: [Tool.self]).help
        #expect(help == """
            OVERVIEW: A tool with subcommands.

            USAGE: tool <subcommand>

            OPTIONS:
              --version               Show the version.
              -h, --help              Show help information.

            SUBCOMMANDS:
              show                    Show things from sources.
              count                   Count one file.
              group                   A nested group.

              See 'tool help <subcommand>' for detailed help.

            """)
    }

    @Test func shortUsageIsKeptWhole() {
        #expect(HelpGenerator(path: [Tool.self, CountSample.self]).usage == "tool count --count <count> <file>")
        #expect(HelpGenerator(path: [Tool.self, GroupSample.self, LeafSample.self]).usage == "tool group leaf <text>")
    }

    @Test func exitStatusesFollowTheErrorKind() async {
        #expect(Tool.run(arguments: ["count", "--count", "2", "fine"]) == 0)
        #expect(Tool.run(arguments: ["count", "--count", "0", "fine"]) == 64)
        #expect(Tool.run(arguments: ["count", "--count", "2", "bad-data"]) == 65)
        #expect(Tool.run(arguments: ["count", "--count", "2", "missing"]) == 1)
        #expect(Tool.run(arguments: ["count", "--count", "2", "quiet"]) == 3)
        #expect(Tool.run(arguments: ["--version"]) == 0)
        #expect(Tool.run(arguments: []) == 0)
        #expect(Tool.run(arguments: ["show", "--bogus"]) == 64)
    }
}

@Suite struct NestedHelpTests {
    @Test func nestedGroupsPointToTheirOwnHelp() {
        let help = HelpGenerator(path: [Tool.self, GroupSample.self]).help
        #expect(help.hasSuffix("  See 'tool help group <subcommand>' for detailed help.\n"))
        #expect(help.contains("USAGE: tool group <subcommand>"))
    }
}
