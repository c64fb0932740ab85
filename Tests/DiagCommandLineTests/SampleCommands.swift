import DiagCommandLine

/// Commands shaped like diag's, to exercise the parser and help without the real ones.
struct Tool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tool", abstract: "A tool with subcommands.", version: "tool 1.2.3",
        subcommands: [ShowSample.self, CountSample.self, GroupSample.self])

    func run() throws { throw CleanExit.helpRequest() }
}

enum SampleStyle: String, CaseIterable, ExpressibleByArgument {
    case plain, fancy
}

struct ShowSample: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show things from sources.")

    @Option(help: "A filter.") var predicate: String?
    @Option(name: "var", help: "A variable NAME=VALUE.") var variables: [String]
    @Option(help: "The output style.") var style: SampleStyle = .plain
    @Option(help: "An offset.") var timezone: String?
    @Option(short: "n", help: "How many.") var limit: Int = 10
    @Flag(help: "Include info records.") var info: Bool
    @Argument(help: "Where to read.", valueName: "source") var sources: [String]

    func run() throws {}
}

struct CountSample: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "count", abstract: "Count one file.")

    @Option(help: "How many to keep.") var count: Int
    @Argument(help: "The file.") var file: String

    mutating func validate() throws {
        guard count > 0 else { throw ValidationError("--count must be positive, not \(count)") }
    }

    func run() throws {
        if file == "bad-data" { throw InputError("bad-data:1: not a record") }
        if file == "missing" { throw RuntimeError("cannot open 'missing'") }
        if file == "quiet" { throw ExitCode(3) }
    }
}

struct GroupSample: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "group", abstract: "A nested group.", subcommands: [LeafSample.self])

    func run() throws { throw CleanExit.helpRequest() }
}

struct LeafSample: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "leaf", abstract: "The leaf.")

    @Argument(help: "Some text.") var text: String

    func run() throws {}
}
