import DiagCommandLine

/// A tool whose command takes its options from groups, one nested in another and one titled,
/// to exercise `@OptionGroup` in parsing, help, validation and the generated scripts.
struct GroupedTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grouped", abstract: "A tool whose options come from groups.", version: "grouped 1",
        subcommands: [WindowSample.self])

    func run() throws { throw CleanExit.helpRequest() }
}

/// A window as two numbers; its own rule, and a value it works out for the command.
struct SampleWindow: ParsableArguments {
    @Option(help: "From this instant on.") var start: Int?
    @Option(help: "Before this instant.") var end: Int?
    /// Set by `validate()`: what the command reads instead of re-checking start and end.
    var span: Int?

    mutating func validate() throws {
        if let start, let end {
            guard end > start else { throw ValidationError("--end (\(end)) must be after --start (\(start))") }
            span = end - start
        }
    }
}

/// A group that holds another group and options of its own.
struct SampleFilter: ParsableArguments {
    @OptionGroup var window: SampleWindow
    @Option(help: "Only this process.", valueName: "name") var process: [String]
    @Flag(help: "Include debug records.") var debug: Bool
}

struct SampleOutput: ParsableArguments {
    @Option(help: "The output style.") var style: SampleStyle = .plain
    @Flag(short: "c", help: "Colour levels.") var color: Bool
}

struct WindowSample: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "window", abstract: "Read a window of records.")

    @OptionGroup var filter: SampleFilter
    @Flag(help: "Print only the count.") var count: Bool
    @OptionGroup(title: "Output") var output: SampleOutput
    @Argument(help: "Where to read.", valueName: "source") var sources: [String]

    /// Runs after the groups' rules, so it can read their results.
    mutating func validate() throws {
        if count, output.style == .fancy { throw ValidationError("--count and --style fancy cannot be used together") }
        if filter.window.span == 0 { throw ValidationError("unreachable: the window's own rule refuses an empty window") }
    }

    func run() throws {
        if sources.contains("bad-data") { throw InputError("bad-data:1: not a record") }
    }
}
