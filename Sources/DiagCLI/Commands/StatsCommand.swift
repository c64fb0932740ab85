import DiagCommandLine
import DiagImport
import DiagModel
import DiagOutput
import DiagQuery
import DiagStore
import Foundation

/// `diag stats`: how many records, and how many bytes of messages, per process, sender,
/// subsystem, category, level and minute, like `log stats`. The arguments and the printing;
/// DiagQuery's `StatsCounter` counts and its `StatsReport` lays the tables out.
struct StatsCommand: ParsableCommand {
    enum Style: String, CaseIterable, ExpressibleByArgument { case human, json }
    typealias SortKey = StatsReport.Order

    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Count log records per process, sender, subsystem, category, level and minute.",
        discussion: """
            A SOURCE is a store directory, a bundle or a plain log file, as for diag show (default: the \
            default store). Every level is counted. Bytes are the UTF-8 bytes of the messages. On stores \
            and bundles the counts come from aggregate SQL when the predicate is decided entirely in SQL; \
            a predicate with a residual (or a plain file) is counted record by record, and --style json \
            says which was done.
            """)

    @OptionGroup var query: PredicateOptions<CountWording>
    @OptionGroup var span: WindowOptions<CountWording>
    @OptionGroup var table: StatsTableOptions
    @Option(help: TimezoneArgument.help, valueName: "zone")
    var timezone: String?
    // log stats' subjects (StatsSubjects.swift).
    @Flag(help: "Show only the totals and the levels, without the per-process, sender, subsystem, category and minute tables (log stats --overview).")
    var overview: Bool
    @OptionGroup var origin: OriginOptions<CountWording>
    @Argument(help: "Stores, bundles or log files to count (default: the default store).", valueName: "source")
    var sources: [String]

    private var zone = DisplayZone.utc
    private var window = TimeWindow()

    mutating func validate() throws {
        zone = try TimezoneArgument.zone(timezone, sources: sources)
        window = try span.window(zone: zone)
    }

    mutating func run() throws {
        let user = try query.text()
        let text = StatsSubjects.restrict(user, processes: origin.process, senders: origin.sender)
        let querySources = try SourceArguments.resolve(sources)
        let variables = try SourceArguments.variables(for: querySources, overriding: query.boundVariables)
        let condition = try text.map { try PredicateCondition.make($0, user: user, variables: variables, zone: zone) }
        window = try span.window(zone: zone, sources: querySources, live: sources.isEmpty, options: ImportOptions(timeZone: zone.timeZone))
        let counted = try StatsCounter.count(
            querySources, condition: condition, start: window.start, end: window.end,
            bundleOpener: SourceArguments.bundleOpener, options: ImportOptions(timeZone: zone.timeZone)
        ) { issue in
            StandardStream.error.write("\(issue)\n")
        }
        if counted.refusedLines > 0 {
            StandardStream.error.write("diag stats: \(counted.refusedLines) lines were refused (not records) and not counted\n")
        }
        let report = StatsReport(tally: counted.tally, sort: table.sort, limit: table.limit, zone: zone)
        let sink = OutputSink.standardOutput()
        switch table.style {
        case .human: sink.write(report.human(method: counted.method, reason: counted.reason, predicate: text, overview: overview))
        case .json: sink.write(report.json(method: counted.method, residual: condition?.residual != nil, reason: counted.reason, predicate: text))
        }
        sink.flush()
    }
}
