import DiagCommandLine
import DiagFleet
import DiagOutput
import DiagPredicate
import DiagQuery
import Foundation

/// What `fleet show` and `fleet stats` share: the database, the bundle, the predicate and the
/// window. The fleet has no newest record to count `--last` from (bundles of many machines and
/// days), so `--last` counts back from now and takes no `boot`; the window rule is `TimeWindow`'s.
struct FleetOptions<Wording: OptionWording>: ParsableArguments {
    @Option(help: "The PostgreSQL database: postgresql://[user@]host[:port]/database (default: $DIAG_FLEET_DATABASE).", valueName: "url")
    var database: String?
    @Option(help: "\(Wording.only) the records of this bundle: its number or 8+ hex digits of its identity.", valueName: "id")
    var bundle: String?
    @OptionGroup var query: PredicateOptions<Wording>
    @Option(help: "\(Wording.records) from this time on: \(TimeArgument.accepted).", valueName: "time")
    var start: String?
    @Option(help: "\(Wording.records) before this time (same forms as --start).", valueName: "time")
    var end: String?
    @Option(help: "\(Wording.records) of the last 30s, 5m, 2h or 1d before now.", valueName: "duration")
    var last: String?

    /// `--last`'s length in nanoseconds, once checked.
    private(set) var lastLength: Int64?

    mutating func validate() throws {
        if last != nil, start != nil { throw ValidationError("--last and --start cannot be used together") }
        lastLength = try last.map(TimeArgument.duration)
    }

    /// The window in `zone`, the rule checked.
    func window(zone: DisplayZone) throws -> TimeWindow {
        let end = try end.map { try TimeArgument.instant($0, option: "--end", zone: zone) }
        if let lastLength {
            return try TimeWindow.checked(start: Int64(Date().timeIntervalSince1970 * 1e9) - lastLength, end: end, startName: "--last")
        }
        return try TimeWindow.checked(start: try start.map { try TimeArgument.instant($0, option: "--start", zone: zone) }, end: end)
    }
}

extension FleetOptions {
    /// The query over `--bundle`'s records (all when it is not given): the bundle resolved, the
    /// predicate parsed with the bundles' identifiers and `--var`'s values, dates read in `zone`
    /// (a bad predicate exits 65 with its caret).
    func query(_ text: String?, user: String? = nil, selection: RecordSelection, zone: DisplayZone, connection: PostgresConnection) throws -> FleetQuery {
        let bundleID = try bundle.map { try FleetBundles.resolve($0, connection: connection) }
        var predicate: DiagPredicate.Predicate?
        if let text {
            let bound = try FleetBundles.identifiers(bundleID: bundleID, connection: connection)
                .merging(query.boundVariables) { _, given in given }
            predicate = try PredicateCondition.parse(text, user: user, variables: bound, dateZone: DateLiteralZone(zone))
        }
        return FleetQuery(selection: selection, predicate: predicate, bundleID: bundleID)
    }
}
