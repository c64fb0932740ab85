import DiagCommandLine
import DiagFleet
import DiagModel
import DiagOutput
import DiagQuery
import DiagStore
import Foundation

/// `diag fleet stats`: `diag stats` over the fleet database, the same tables and JSON; aggregate
/// SQL when PostgreSQL decides the predicate exactly, otherwise the records are counted
/// (`FleetStatistics.tally`). The arguments and the printing.
struct FleetStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Count the fleet's records per process, sender, subsystem, category, level and minute.",
        discussion: """
            As diag stats: every level is counted, bytes are the UTF-8 bytes of the messages. The counts \
            come from aggregate SQL in PostgreSQL when the predicate is decided there entirely; a \
            predicate with a residual is counted record by record, and --style json says which was done.
            """)

    @OptionGroup var fleet: FleetOptions<CountWording>
    @OptionGroup var table: StatsTableOptions
    @Option(help: TimezoneArgument.help(verb: "Show and read times", bundle: false), valueName: "zone")
    var timezone: String?

    private var zone = DisplayZone.utc
    private var window = TimeWindow()

    mutating func validate() throws {
        zone = try TimezoneArgument.zone(timezone)
        window = try fleet.window(zone: zone)
    }

    func run() throws {
        let text = try fleet.query.text()
        let connection = try FleetDatabase.connect(fleet.database)
        let selection = RecordSelection(start: window.start, end: window.end, includeInfo: true, includeDebug: true)
        let plan = try FleetDatabase.reporting {
            try fleet.query(text, selection: selection, zone: zone, connection: connection).plan()
        }
        let reason: String? = plan.isExact ? nil : "the predicate has a part SQL cannot decide (a residual)"
        let tally = try FleetDatabase.reporting { try FleetStatistics.tally(connection: connection, plan: plan) }
        let report = StatsReport(tally: tally, sort: table.sort, limit: table.limit, zone: zone)
        let sink = OutputSink.standardOutput()
        switch table.style {
        case .human: sink.write(report.human(method: plan.isExact ? "sql-aggregate" : "streamed", reason: reason, predicate: text))
        case .json: sink.write(report.json(method: plan.isExact ? "sql-aggregate" : "streamed", residual: !plan.isExact, reason: reason, predicate: text))
        }
        sink.flush()
    }
}
