import Testing
@testable import DiagCommandLine

/// Any words at all: parsing ends in a command, a clean exit or a usage error, never a crash.
@Suite struct HostileArgumentTests {
    static let vocabulary = [
        "show", "count", "group", "leaf", "help", "--", "-", "-h", "--help", "--version", "--predicate", "--predicate=",
        "--var", "--var=X=1", "--style", "--style=fancy", "--style=", "-n", "-n5", "-nn", "--limit", "--info", "--info=1",
        "--count", "0", "-1", "1e308", "nan", "", " ", "=", "--=", "---", "-\u{0}", "\u{0}", "é", "🙂", "--é", "a\nb",
        String(repeating: "x", count: 10_000), "--" + String(repeating: "y", count: 5_000),
    ]

    @Test func randomWordListsNeverCrash() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            let count = Int.random(in: 0...8, using: &generator)
            let words = (0..<count).map { _ in Self.vocabulary.randomElement(using: &generator)! }
            var parser = CommandParser(root: Tool.self)
            do {
                var command = try parser.parse(words)
                try validateOptionGroups(of: command)
                try command.validate()
            } catch is ValidationError {
            } catch is CleanExit {
            } catch {
                Issue.record("unexpected \(error) for \(words)")
            }
            _ = HelpGenerator(path: parser.path).usage
        }
    }
}
