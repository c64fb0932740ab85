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

    @Option(help: "The PostgreSQL database: postgresql://[user@]host[:port]/database (default: $DIAG_FLEET_DATABASE).", valueName: "url")
    var database: String?
    @Option(help: "Show only the records of this bundle: its number or 8+ hex digits of its identity.", valueName: "id")
    var bundle: String?
    @Option(help: "Show only records that match this predicate (NSPredicate format, as log show).")
    var predicate: String?
    @Option(help: "Read the predicate from a file; lines starting with # are comments.", valueName: "file")
    var predicateFile: String?
    @Option(name: "var", help: "A value for $NAME in the predicate.", valueName: "name=value")
    var variables: [String]
    @Option(help: "Show records from this time on: \(TimeArgument.accepted).", valueName: "time")
    var start: String?
    @Option(help: "Show records before this time (same forms as --start).", valueName: "time")
    var end: String?
    @Option(help: "Show records of the last 30s, 5m, 2h or 1d before now.", valueName: "duration")
    var last: String?
    @Flag(help: "Include Info records.")
    var info: Bool
    @Flag(help: "Include Debug records.")
    var debug: Bool
    @Option(help: "Show only this process, by ID or name.", valueName: "pid|name")
    var process: [String]
    @Option(help: "Show only records logged by this sender (library or module).", valueName: "name")
    var sender: [String]
    @Option(help: "Show only the records of this activity: its identifier in decimal or 0x hex.", valueName: "id")
    var activity: String?
    @Flag(help: "Include signposts (eventType signpostEvent), as diag show --signpost; left out by default.")
    var signpost: Bool

    @Flag(name: "no-signpost", help: "Leave signposts out (the default).")
    var noSignpost: Bool

    @Option(help: "The output style.")
    var style: OutputStyle = .default
    @Option(help: "Show and read times in this zone: a name (Europe/Paris) or an offset (+0100). Default: local ($TZ, else /etc/localtime).", valueName: "zone")
    var timezone: String?
    @Option(help: "Colour levels.")
    var color: ColorMode = .auto

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
        window = try FleetWindow(predicate: predicate, predicateFile: predicateFile, variables: variables,
                                 start: start, end: end, last: last, timezone: timezone)
    }

    func run() throws {
        let text = SignpostArgument.restrict(
            ActivityArgument.restrict(try predicateFile.map(PredicateFile.read) ?? predicate, to: activityIdentifier),
            includeSignposts: signpost)
        let connection = try FleetDatabase.connect(database)
        let selection = RecordSelection(
            start: window.start, end: window.end, includeInfo: info, includeDebug: debug,
            processes: process.map(RecordSelection.ProcessSelector.init), senders: sender)
        let sink = OutputSink.standardOutput()
        let printer = RecordPrinter(style: style, zone: window.zone, colored: color.enabled(isTerminal: sink.isTerminal), sink: sink)
        try FleetDatabase.reporting {
            let query = try window.query(text, selection: selection, bundle: bundle, connection: connection)
            let reader = try FleetRecordReader(connection: connection, plan: query.plan())
            printer.begin()
            defer { printer.finish() }
            while let record = try reader.next() { printer.write(record) }
        }
    }
}

/// The options `fleet show` and `fleet stats` share with `diag show`: the window, the zone, the
/// variables, and the predicate parsed with the bundles' identifiers.
struct FleetWindow {
    var zone = DisplayZone.utc
    var start: Int64?
    var end: Int64?
    var variables: [String: String] = [:]

    init() {}

    init(predicate: String?, predicateFile: String?, variables: [String], start: String?, end: String?, last: String?, timezone: String?) throws {
        if predicate != nil, predicateFile != nil { throw ValidationError("--predicate and --predicate-file cannot be used together") }
        if last != nil, start != nil { throw ValidationError("--last and --start cannot be used together") }
        zone = try TimezoneArgument.zone(timezone)
        self.variables = try VariableArguments.parse(variables)
        if let start { self.start = try TimeArgument.instant(start, option: "--start", zone: zone) }
        if let end { self.end = try TimeArgument.instant(end, option: "--end", zone: zone) }
        if let last { self.start = Int64(Date().timeIntervalSince1970 * 1e9) - (try TimeArgument.duration(last)) }
        if let low = self.start, let high = self.end, high < low {
            throw ValidationError("--end (\(high / 1_000_000_000)) is before --start (\(low / 1_000_000_000)); nothing could match")
        }
    }

    /// The query: the bundle resolved, the predicate parsed (a bad one exits 65 with its caret).
    func query(_ text: String?, selection: RecordSelection, bundle: String?, connection: PostgresConnection) throws -> FleetQuery {
        let bundleID = try bundle.map { try FleetBundles.resolve($0, connection: connection) }
        var predicate: DiagPredicate.Predicate?
        if let text {
            let bound = try FleetBundles.identifiers(bundleID: bundleID, connection: connection).merging(variables) { _, given in given }
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
