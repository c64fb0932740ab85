import DiagCommandLine
import DiagOutput

/// `--style`, `--timezone` and `--color`: how the commands that print records as `log show`
/// does (show, stream, fleet show) write them. `--timezone` also reads the times the command
/// is given (`--start`, `--end`, the predicate's dates); `Zones` says whether the command has
/// bundle SOURCEs whose recorded zone `--timezone bundle` can take.
struct OutputOptions<Zones: TimezoneChoices>: ParsableArguments {
    @Option(help: "The output style.")
    var style: OutputStyle = .default
    @Option(help: TimezoneArgument.help(verb: "Show and read times", bundle: Zones.takesBundle), valueName: "zone")
    var timezone: String?
    @Option(help: "Colour levels.")
    var color: ColorMode = .auto

    /// The zone of `--timezone`; `sources` are what `bundle` looks among.
    func zone(sources: [String] = []) throws -> DisplayZone {
        try TimezoneArgument.zone(timezone, sources: sources)
    }

    /// A printer of records in `--style`, coloured as `--color` says for `sink`.
    func printer(zone: DisplayZone, sink: OutputSink) -> RecordPrinter {
        RecordPrinter(style: style, zone: zone, colored: color.enabled(isTerminal: sink.isTerminal), sink: sink)
    }
}

/// Whether `--timezone bundle` is one of a command's choices: only where bundle SOURCEs are read.
protocol TimezoneChoices {
    static var takesBundle: Bool { get }
}

/// show, stats, export: SOURCEs can be bundles.
enum BundleZone: TimezoneChoices { static let takesBundle = true }

/// stream, fleet show, and the commands whose zone is read before any source.
enum LocalZone: TimezoneChoices { static let takesBundle = false }
