import DiagCommandLine
import DiagImport
import DiagOutput
import DiagQuery

/// `--start`, `--end` and `--last`: the window of commands that read stores, bundles and files
/// (`--last` counted back from their newest record, or `boot`). The times are read in the
/// command's zone, which depends on its other options and sources: a command calls
/// `window(zone:)` once it has the zone, and `window(zone:sources:live:options:)` at run time
/// when `--last` must look at the sources.
struct WindowOptions<Wording: OptionWording>: ParsableArguments {
    @Option(help: "\(Wording.records) from this time on: \(TimeArgument.accepted).", valueName: "time")
    var start: String?
    @Option(help: "\(Wording.records) before this time (same forms as --start).", valueName: "time")
    var end: String?
    @Option(help: LastArgument.help, valueName: "duration|boot")
    var last: String?

    /// `--last`, checked.
    private(set) var lastWindow: LastArgument?

    mutating func validate() throws {
        if last != nil, start != nil { throw ValidationError("--last and --start cannot be used together") }
        lastWindow = try last.map(LastArgument.parse)
    }

    /// `--start` and `--end` read in `zone`, the rule checked; the start of `--last` comes later.
    func window(zone: DisplayZone) throws -> TimeWindow {
        try TimeWindow.checked(
            start: try start.map { try TimeArgument.instant($0, option: "--start", zone: zone) },
            end: try end.map { try TimeArgument.instant($0, option: "--end", zone: zone) })
    }

    /// The whole window: with `--last`, its start counted back from the sources' newest record
    /// (or now, or boot, for the live store), then the rule checked again against `--end`.
    func window(zone: DisplayZone, sources: [QuerySource], live: Bool, options: ImportOptions) throws -> TimeWindow {
        let window = try window(zone: zone)
        guard let lastWindow else { return window }
        let start = try lastWindow.start(sources: sources, live: live, options: options)
        return try TimeWindow.checked(start: start, end: window.end, startName: "--last")
    }
}
