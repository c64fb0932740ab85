import Testing
@testable import DiagCommandLine

@Suite struct CommandParserTests {
    private func parseShow(_ words: [String]) throws -> ShowSample {
        var parser = CommandParser(root: Tool.self)
        let command = try parser.parse(["show"] + words)
        return try #require(command as? ShowSample)
    }

    private func usageError(_ words: [String]) -> String? {
        var parser = CommandParser(root: Tool.self)
        do {
            _ = try parser.parse(words)
            return nil
        } catch let error as ValidationError {
            return error.message
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test func defaultsWhenNothingIsGiven() throws {
        let show = try parseShow([])
        #expect(show.predicate == nil)
        #expect(show.variables == [])
        #expect(show.style == .plain)
        #expect(show.limit == 10)
        #expect(show.info == false)
        #expect(show.sources == [])
    }

    @Test func optionValuesInBothSpellings() throws {
        let show = try parseShow(["--predicate", "process == \"a\"", "--style=fancy", "-n", "3", "--info"])
        #expect(show.predicate == "process == \"a\"")
        #expect(show.style == .fancy)
        #expect(show.limit == 3)
        #expect(show.info)
    }

    @Test func repeatableOptionsAndPositionalsKeepTheirOrder() throws {
        let show = try parseShow(["a.log", "--var", "X=1", "b.log", "--var=Y=2", "--", "--c.log"])
        #expect(show.variables == ["X=1", "Y=2"])
        #expect(show.sources == ["a.log", "b.log", "--c.log"])
    }

    @Test func valuesThatStartWithADashAreTaken() throws {
        let show = try parseShow(["--timezone", "-0500", "--var", "N=-1", "-n", "-4"])
        #expect(show.timezone == "-0500")
        #expect(show.variables == ["N=-1"])
        #expect(show.limit == -4)
    }

    @Test func badUsageIsReportedWithTheWordAtFault() {
        #expect(usageError(["show", "--nope"]) == "Unknown option '--nope'")
        #expect(usageError(["show", "-x"]) == "Unknown option '-x'")
        #expect(usageError(["show", "--predicate"]) == "Missing value for '--predicate <predicate>'")
        #expect(usageError(["show", "--predicate", "--info"]) == "Missing value for '--predicate <predicate>'")
        #expect(usageError(["show", "--style", "loud"]) == "The value 'loud' is invalid for '--style <style>'; accepted values: 'plain', 'fancy'")
        #expect(usageError(["show", "-n", "many"]) == "The value 'many' is invalid for '--limit <limit>'")
        #expect(usageError(["show", "--info=yes"]) == "The flag '--info' takes no value")
        #expect(usageError(["count", "x"]) == "Missing expected argument '--count <count>'")
        #expect(usageError(["count", "--count", "1"]) == "Missing expected argument '<file>'")
        #expect(usageError(["count", "--count", "1", "a", "b"]) == "Unexpected argument 'b'")
        #expect(usageError(["frobnicate"]) == "Unknown subcommand 'frobnicate'; the subcommands are: show, count, group")
    }

    @Test func nestedSubcommandsAreReached() throws {
        var parser = CommandParser(root: Tool.self)
        let leaf = try #require(try parser.parse(["group", "leaf", "hello"]) as? LeafSample)
        #expect(leaf.text == "hello")
        #expect(parser.path.map { $0.commandName } == ["tool", "group", "leaf"])
    }

    @Test func helpAndVersionEndParsing() throws {
        for words in [["show", "--help"], ["show", "-h"], ["help", "show"]] {
            var parser = CommandParser(root: Tool.self)
            #expect(throws: CleanExit.self) { _ = try parser.parse(words) }
        }
        #expect(usageError(["help", "nothing"]) == "Unknown subcommand 'nothing'; the subcommands are: show, count, group")
    }

    @Test func namesComeFromPropertiesAndTypes() {
        #expect(kebabCase("predicateFile") == "predicate-file")
        #expect(kebabCase("info") == "info")
        #expect(CountSample.commandName == "count")
    }
}
