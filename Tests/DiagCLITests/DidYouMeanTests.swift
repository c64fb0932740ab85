import Testing
import TestSupport

/// A mistyped subcommand or option gets a suggestion, as predicate field names do.
@Suite struct DidYouMeanTests {
    @Test(arguments: [
        (["shwo"], "Unknown subcommand 'shwo' (did you mean 'show'?); the subcommands are: show,"),
        (["help", "colect"], "Unknown subcommand 'colect' (did you mean 'collect'?)"),
        (["show", "--lsat", "5m"], "Unknown option '--lsat' (did you mean '--last'?)"),
        (["show", "--predicat", "x"], "Unknown option '--predicat' (did you mean '--predicate'?)"),
        (["stream", "--levle", "info"], "Unknown option '--levle' (did you mean '--level'?)"),
        (["predicate", "chekc", "x"], "Unknown subcommand 'chekc' (did you mean 'check'?)"),
    ])
    func mistypedNamesGetTheClosest(arguments: [String], message: String) throws {
        let output = try diag(arguments)
        #expect(output.status == 64)
        #expect(output.stderr.hasPrefix("Error: " + message), "\(output.stderr)")
    }

    @Test func farOffWordsGetNoGuess() throws {
        let output = try diag(["show", "--frobnicate"])
        #expect(output.status == 64)
        #expect(output.stderr.hasPrefix("Error: Unknown option '--frobnicate'\n"))
        #expect(try diag(["xyz"]).stderr.hasPrefix("Error: Unknown subcommand 'xyz'; the subcommands are:"))
    }
}
