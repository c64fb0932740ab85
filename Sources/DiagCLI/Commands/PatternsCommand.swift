import DiagCommandLine
import DiagModel
import DiagOutput
import DiagPatterns

/// `diag patterns`: the messages of the selected records grouped into patterns, by count.
struct PatternsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "patterns",
        abstract: "Group the messages of stores, bundles or log files into patterns, by count.",
        discussion: """
            A pattern is a message with its variable parts as <*>: numbers, hex, UUIDs, addresses, \
            paths, durations, sizes, times, quoted values and the values of key=value, and words \
            that vary among otherwise equal messages. Its ID is a short hash of its text: the same \
            pattern has the same ID in every run (diag show --pattern ID shows its records). \
            The filters are those of diag show; SOURCE is a store, a bundle or a log file. \
            At most --max-patterns patterns are kept; records beyond them are counted and reported.
            """)

    @OptionGroup var query: PredicateOptions<PlainWording>
    @OptionGroup var span: WindowOptions<PlainWording>
    @OptionGroup var selection: FilterOptions<PlainWording>
    @Option(help: "The output style: a table, or one JSON object a pattern.")
    var style: PatternStyle = .default
    @Option(help: TimezoneArgument.help(verb: "Show and read times", bundle: true), valueName: "zone")
    var timezone: String?
    @OptionGroup var lineYear: YearOptions
    private var year: Int? { lineYear.year }
    @Option(help: "The most patterns kept (1 to 1000000); records that need more are counted as overflow.", valueName: "n")
    var maxPatterns: Int = 10_000
    @Argument(help: "Stores, bundles or log files to read (default: the default store).", valueName: "source")
    var sources: [String]

    private var filter: RecordFilter?

    mutating func validate() throws {
        filter = try RecordFilter(
            query: query, span: span, filter: selection, timezone: timezone, year: year, sources: sources)
        guard (1...1_000_000).contains(maxPatterns) else {
            throw ValidationError("The value '\(maxPatterns)' is invalid for '--max-patterns <n>'; accepted: 1 to 1000000")
        }
    }

    func run() throws {
        let filter = filter!
        var miner = PatternMiner<RecordPatternSummary>(capacity: maxPatterns)
        let refused = try filter.mine(sources, into: &miner) { $0.count($1) }
        let patterns = miner.finish().sorted { $0.count != $1.count ? $0.count > $1.count : $0.id < $1.id }
        let sink = OutputSink.standardOutput()
        var table = PatternTable(zone: filter.zone)
        switch style {
        case .default: table.writeText(patterns, overflow: miner.overflowCount, to: sink)
        case .json: table.writeJSON(patterns, array: true, to: sink)
        case .ndjson: table.writeJSON(patterns, array: false, to: sink)
        }
        sink.flush()
        if miner.overflowCount > 0, style != .default {
            StandardStream.error.write("diag patterns: \(miner.overflowCount) records needed more than \(maxPatterns) patterns and are in none\n")
        }
        if refused > 0 {
            StandardStream.error.write("diag patterns: \(refused) line\(refused == 1 ? " was" : "s were") refused (not records)\n")
            throw ExitCode.dataError
        }
    }
}
