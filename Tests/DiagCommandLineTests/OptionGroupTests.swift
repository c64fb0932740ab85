import TestSupport
import Testing
@testable import DiagCommandLine

/// `@OptionGroup`: a group's options are the command's own to the parser, help, suggestions and
/// the generated scripts, and the group's `validate()` runs before the command's.
@Suite struct OptionGroupTests {
    private func parsed(_ words: [String]) throws -> WindowSample {
        var parser = CommandParser(root: GroupedTool.self)
        var command = try parser.parse(["window"] + words)
        try validateOptionGroups(of: command)
        try command.validate()
        return try #require(command as? WindowSample)
    }

    private func usageError(_ words: [String]) -> String? {
        do {
            _ = try parsed(words)
            return nil
        } catch let error as ValidationError {
            return error.message
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test func groupDefaultsWhenNothingIsGiven() throws {
        let window = try parsed([])
        #expect(window.filter.window.start == nil)
        #expect(window.filter.window.span == nil)
        #expect(window.filter.process == [])
        #expect(window.filter.debug == false)
        #expect(window.output.style == .plain)
        #expect(window.output.color == false)
        #expect(window.count == false)
    }

    @Test func optionsOfNestedAndTitledGroupsAreParsedAmongTheCommandsOwn() throws {
        let window = try parsed(["a.log", "--start", "5", "--process=x", "-c", "--end=9", "--count", "--process", "y", "--debug", "b.log"])
        #expect(window.filter.window.start == 5)
        #expect(window.filter.window.end == 9)
        #expect(window.filter.process == ["x", "y"])
        #expect(window.filter.debug)
        #expect(window.output.color)
        #expect(window.count)
        #expect(window.sources == ["a.log", "b.log"])
    }

    @Test func aGroupsValidateRunsAndKeepsWhatItWorksOut() throws {
        #expect(try parsed(["--start", "5", "--end", "9"]).filter.window.span == 4)
        #expect(usageError(["--start", "9", "--end", "5"]) == "--end (5) must be after --start (9)")
        // Equal ends: the group's rule refuses before the command's own validate() is reached.
        #expect(usageError(["--start", "5", "--end", "5"]) == "--end (5) must be after --start (5)")
    }

    @Test func theCommandsValidateSeesTheGroupsValues() {
        #expect(usageError(["--count", "--style", "fancy"]) == "--count and --style fancy cannot be used together")
        #expect(usageError(["--count", "--style", "plain"]) == nil)
    }

    @Test func badValuesInAGroupNameTheOption() {
        #expect(usageError(["--start", "soon"]) == "The value 'soon' is invalid for '--start <start>'")
        #expect(usageError(["--style", "loud"]) == "The value 'loud' is invalid for '--style <style>'; accepted values: 'plain', 'fancy'")
        #expect(usageError(["--end"]) == "Missing value for '--end <end>'")
        #expect(usageError(["--debug=yes"]) == "The flag '--debug' takes no value")
    }

    @Test func didYouMeanReachesIntoGroups() {
        #expect(usageError(["--strat", "1"]) == "Unknown option '--strat' (did you mean '--start'?)")
        #expect(usageError(["--proces", "x"]) == "Unknown option '--proces' (did you mean '--process'?)")
        #expect(usageError(["--stlye", "plain"]) == "Unknown option '--stlye' (did you mean '--style'?)")
    }

    @Test func helpListsUntitledGroupsInPlaceAndTitledOnesUnderTheirTitle() {
        let help = HelpGenerator(path: [GroupedTool.self, WindowSample.self]).help
        #expect(help == """
            OVERVIEW: Read a window of records.

            USAGE: grouped window [<options>] [<source> ...]

            ARGUMENTS:
              <source> ...            Where to read.

            OUTPUT:
              --style <style>         The output style. (values: plain, fancy; default:
                                      plain)
              -c, --color             Colour levels.

            OPTIONS:
              --start <start>         From this instant on.
              --end <end>             Before this instant.
              --process <name>        Only this process. (repeatable)
              --debug                 Include debug records.
              --count                 Print only the count.
              -h, --help              Show help information.

            """)
    }

    @Test func theGeneratorsSeeGroupedOptions() {
        let info = CommandInfo(root: GroupedTool.self)
        let window = info.subcommands[0]
        #expect(window.options.map(\.displayName) == ["--start", "--end", "--process", "--debug", "--count", "--style", "--color", "--help"])
        #expect(window.options.first { $0.longName == "style" }?.groupTitle == "Output")
        #expect(window.options.first { $0.longName == "start" }?.groupTitle == nil)
    }

    @Test func exitStatusesThroughGroups() {
        #expect(GroupedTool.run(arguments: ["window", "--start", "1", "--end", "2", "ok"]) == 0)
        #expect(GroupedTool.run(arguments: ["window", "--start", "2", "--end", "1"]) == 64)
        #expect(GroupedTool.run(arguments: ["window", "--strat", "1"]) == 64)
        #expect(GroupedTool.run(arguments: ["window", "bad-data"]) == 65)
    }
}

/// The completion scripts and manual pages see a group's options as the command's own.
@Suite struct OptionGroupScriptTests {
    @Test func bashOffersGroupedOptionsAndTheirValues() throws {
        let script = BashCompletionScript(root: CommandInfo(root: GroupedTool.self)).text
        let offered = try GeneratedScriptTests.bashCompletions(script, function: "_grouped", ["grouped", "window", "-"])
        for spelling in ["--start", "--end", "--process", "--debug", "--count", "--style", "-c", "--color", "--help"] {
            #expect(offered.contains(spelling), "bash does not offer '\(spelling)'")
        }
        #expect(try GeneratedScriptTests.bashCompletions(script, function: "_grouped", ["grouped", "window", "--style", ""]) == ["plain", "fancy"])
    }

    @Test func theManualPageListsGroupedOptions() throws {
        let info = CommandInfo(root: GroupedTool.self)
        let page = ManualPage(command: info.subcommands[0], root: info)
        let folder = try TemporaryDirectory("grouped-manual")
        let path = try folder.write(page.fileName, page.text)
        let rendered = try run("/usr/bin/groff", ["-man", "-Tutf8", "-P-cbou", "-rLL=200n", path]).stdout
        for spelling in ["--start", "--end", "--process", "--debug", "--count", "--style", "--color"] {
            #expect(rendered.contains(spelling), "the page has no '\(spelling)'")
        }
    }
}
