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

    private var window = FleetWindow()
    private var activityIdentifier: Int64?

    mutating func validate() throws {
        try SignpostArgument.validate(signpost: signpost, noSignpost: noSignpost)
        if let activity {
            guard let identifier = ActivityArgument.identifier(activity) else {
                throw ValidationError("The value '\(activity)' is invalid for '--activity <id>'; accepted: a decimal number or 0x followed by hex digits, like 0x1a2b")
            }
            activityIdentifier = identifier
        }
        window = try FleetWindow(fleet, timezone: output.timezone)
    }

    func run() throws {
        let text = SignpostArgument.restrict(
            ActivityArgument.restrict(try fleet.query.text(), to: activityIdentifier),
            includeSignposts: signpost)
        let connection = try FleetDatabase.connect(fleet.database)
        let selection = filter.selection(in: TimeWindow(start: window.start, end: window.end))
        let sink = OutputSink.standardOutput()
        let printer = output.printer(zone: window.zone, sink: sink)
        try FleetDatabase.reporting {
            let query = try window.query(text, selection: selection, bundle: fleet.bundle, connection: connection)
            let reader = try FleetRecordReader(connection: connection, plan: query.plan())
            printer.begin()
            defer { printer.finish() }
            while let record = try reader.next() { printer.write(record) }
        }
    }
}

/// What `fleet show` and `fleet stats` make of their `FleetOptions` and zone: the window, the
/// zone, the `--var` values, and the predicate parsed with the bundles' identifiers.
struct FleetWindow {
    var zone = DisplayZone.utc
    var start: Int64?
    var end: Int64?
    var variables: [String: String] = [:]

    init() {}

    init<Wording>(_ options: FleetOptions<Wording>, timezone: String?) throws {
        zone = try TimezoneArgument.zone(timezone)
        variables = options.query.boundVariables
        let window = try options.window(zone: zone)
        start = window.start
        end = window.end
    }

    /// The query: the bundle resolved, the predicate parsed (a bad one exits 65 with its caret).
    func query(_ text: String?, selection: RecordSelection, bundle: String?, connection: PostgresConnection) throws -> FleetQuery {
        let bundleID = try bundle.map { try FleetBundles.resolve($0, connection: connection) }
        var predicate: DiagPredicate.Predicate?
        if let text {
            let bound = try FleetBundles.identifiers(bundleID: bundleID, connection: connection).merging(variables) { _, given in given }
            UndecidedMatchCheck.install()
            do {
                predicate = try DiagPredicate.Predicate.parse(
                    text, variables: bound, dateZone: DateLiteralZone(zone), enclosingLevels: PredicateCondition.wrapperLevels)
            } catch {
                throw InputError(error.description)
            }
        }
        return FleetQuery(selection: selection, predicate: predicate, bundleID: bundleID)
    }
}
