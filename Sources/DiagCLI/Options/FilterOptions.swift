import DiagCommandLine
import DiagQuery

/// `--info`, `--debug`, `--process` and `--sender`: which records a command reads besides its
/// predicate, as `log show` has them. Without `--info` and `--debug` only Default, Error and
/// Fault records are read.
struct FilterOptions<Wording: OptionWording>: ParsableArguments {
    @Flag(help: "Include Info records.")
    var info: Bool
    @Flag(help: "Include Debug records.")
    var debug: Bool
    @OptionGroup var origin: OriginOptions<Wording>

    var process: [String] { origin.process }
    var sender: [String] { origin.sender }

    /// The selection these options ask for, in `window`.
    func selection(in window: TimeWindow) -> RecordSelection {
        RecordSelection(
            start: window.start, end: window.end, includeInfo: info, includeDebug: debug,
            processes: process.map(RecordSelection.ProcessSelector.init), senders: sender)
    }
}

/// `--process` and `--sender`: where records come from. Part of `FilterOptions`, and alone in
/// the commands that read every level (stats, export).
struct OriginOptions<Wording: OptionWording>: ParsableArguments {
    @Option(help: "\(Wording.only) this process, by ID or name.", valueName: "pid|name")
    var process: [String]
    @Option(help: "\(Wording.only) records logged by this sender (library or module).", valueName: "name")
    var sender: [String]
}
