import DiagCommandLine
import DiagFleet
import DiagOutput
import DiagPredicate
import DiagQuery
import Foundation

/// `diag fleet show`: `diag show` over the fleet database — the same options, predicate language,
/// order and styles.
struct FleetShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show the fleet's records that match, as diag show does.",
        discussion: """
            Records come out in time order; records of the same instant in the order of their bundles' \
            loading, then of each bundle, so that the output is that of diag show BUNDLE… over the same \
            bundles given in load order. Without --info and --debug only Default, Error and Fault records \
            show. $NAME in a predicate takes --var, else the identifier the bundles' manifests agree on.
            """)

    @OptionGroup var fleet: FleetOptions<ShowWording>
    @OptionGroup var filter: FilterOptions<ShowWording>
    @Option(help: "Show only the records of this activity: its identifier in decimal or 0x hex.", valueName: "id")
    var activity: String?
    @Flag(help: "Include signposts (eventType signpostEvent), as diag show --signpost; left out by default.")
    var signpost: Bool

    @Flag(name: "no-signpost", help: "Leave signposts out (the default).")
    var noSignpost: Bool

    @OptionGroup var output: OutputOptions<LocalZone>

    private var zone = DisplayZone.utc
    private var window = TimeWindow()
    private var activityIdentifier: Int64?

    mutating func validate() throws {
        try SignpostArgument.validate(signpost: signpost, noSignpost: noSignpost)
        if let activity {
            guard let identifier = ActivityArgument.identifier(activity) else {
                throw ValidationError("The value '\(activity)' is invalid for '--activity <id>'; accepted: a decimal number or 0x followed by hex digits, like 0x1a2b")
            }
            activityIdentifier = identifier
        }
        zone = try TimezoneArgument.zone(output.timezone)
        window = try fleet.window(zone: zone)
    }

    func run() throws {
        let user = try fleet.query.text()
        let text = SignpostArgument.restrict(
            ActivityArgument.restrict(user, to: activityIdentifier),
            includeSignposts: signpost)
        let connection = try FleetDatabase.connect(fleet.database)
        let selection = filter.selection(in: window)
        let sink = OutputSink.standardOutput()
        let printer = output.printer(zone: zone, sink: sink)
        try FleetDatabase.reporting {
            let query = try fleet.query(text, user: user, selection: selection, zone: zone, connection: connection)
            let reader = try FleetRecordReader(connection: connection, plan: query.plan())
            printer.begin()
            defer { printer.finish() }
            while let record = try reader.next() { printer.write(record) }
        }
    }
}
