import DiagCommandLine
import DiagQuery

/// `--style`, `--sort` and `--count` of `stats` and `fleet stats`: how the tallies are shown.
struct StatsTableOptions: ParsableArguments {
    @Option(help: "The output style.")
    var style: StatsCommand.Style = .human
    @Option(help: "Order the groups by events or bytes.")
    var sort: StatsCommand.SortKey = .events
    @Option(help: "Show this many groups per table, or all (levels and minutes are always all).", valueName: "n|all")
    var count: String = "10"

    /// `--count` as a number of rows, nil for all.
    private(set) var limit: Int?

    mutating func validate() throws {
        guard count != "all" else { return }
        guard let number = Int(count), number > 0 else {
            throw ValidationError("The value '\(count)' is invalid for '--count <n|all>'; accepted: a positive number or all")
        }
        limit = number
    }
}

/// `--sort events|bytes`: the report's order, read as its raw value.
extension StatsReport.Order: ExpressibleByArgument {}
