import DiagCommandLine
import DiagModel
import DiagOutput
import DiagPatterns

/// `diag diff BASE TARGET`: what changed between two repros, as patterns: new, gone, changed.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare the message patterns of two sources: new in TARGET, gone from it, changed in rate.",
        discussion: """
            BASE and TARGET are each a store, a bundle or a log file, read with the filters of diag show. \
            Both are mined together, so a pattern is the same on both sides. New patterns (only in TARGET) \
            come first, those with Error or Fault records before the others; then gone ones (only in BASE); \
            then patterns whose share of their side's records changed beyond chance (a binomial test, \
            z >= 3.29, at least 5 records on one side and a factor of 1.5), with their rates per minute of \
            each side's time span. Then records per process and per level, side by side.
            Exit status: 0, also when there are differences; 2 with --fail-on-new-errors when TARGET has \
            new patterns with Error or Fault records; 1, 64, 65 as the other commands.
            """)

    @OptionGroup var query: PredicateOptions<PlainWording>
    @OptionGroup var span: WindowOptions<PlainWording>
    @OptionGroup var selection: FilterOptions<PlainWording>
    @Option(help: "The output style: text, or one JSON object with new, gone and changed.")
    var style: PatternStyle = .default
    @Option(help: TimezoneArgument.help(verb: "Show and read times", bundle: true), valueName: "zone")
    var timezone: String?
    @OptionGroup var lineYear: YearOptions
    private var year: Int? { lineYear.year }
    @Flag(help: "Exit with status 2 when TARGET has new patterns with Error or Fault records (for CI).")
    var failOnNewErrors: Bool
    @Argument(help: "The source to compare against: a store, a bundle or a log file.", valueName: "base")
    var base: String
    @Argument(help: "The source to compare: a store, a bundle or a log file.", valueName: "target")
    var target: String

    private var filter: RecordFilter?

    mutating func validate() throws {
        filter = try RecordFilter(
            query: query, span: span, filter: selection, timezone: timezone, year: year, sources: [base, target])
        if style == .ndjson {
            throw ValidationError("The value 'ndjson' is invalid for '--style <style>' of diag diff; accepted: default, json")
        }
    }

    func run() throws {
        let filter = filter!
        var miner = PatternMiner<PatternDiff.Sides>()
        var totals = SideTotals()
        var refused = try filter.mine([base], into: &miner, visit: { totals.count($0, side: 0) }) { $0.base.count($1) }
        refused += try filter.mine([target], into: &miner, visit: { totals.count($0, side: 1) }) { $0.target.count($1) }
        let diff = PatternDiff(miner.finish())
        let sink = OutputSink.standardOutput()
        var report = DiffReport(diff: diff, totals: totals, names: (base, target), overflow: miner.overflowCount, zone: filter.zone)
        switch style {
        case .default, .ndjson: report.writeText(to: sink)
        case .json: report.writeJSON(to: sink)
        }
        sink.flush()
        if refused > 0 {
            StandardStream.error.write("diag diff: \(refused) line\(refused == 1 ? " was" : "s were") refused (not records)\n")
            throw ExitCode.dataError
        }
        if failOnNewErrors, !diff.newProblems.isEmpty {
            StandardStream.error.write("diag diff: \(diff.newProblems.count) new pattern\(diff.newProblems.count == 1 ? "" : "s") with Error or Fault records in \(target)\n")
            throw ExitCode(2)
        }
    }
}

/// Records per process and per level, and the time span, of each side.
struct SideTotals {
    var processes: [String: [Int]] = [:]
    var levels: [MessageType: [Int]] = [:]
    var first = [Int64.max, Int64.max]
    var last = [Int64.min, Int64.min]
    var records = [0, 0]
    /// Processes past this many names are counted under "(others)": the table stays bounded.
    static let maximumProcesses = 1000

    mutating func count(_ record: some PatternRecord, side: Int) {
        records[side] += 1
        first[side] = min(first[side], record.timestamp)
        last[side] = max(last[side], record.timestamp)
        var name = record.process ?? "(none)"
        if processes[name] == nil, processes.count >= Self.maximumProcesses { name = "(others)" }
        processes[name, default: [0, 0]][side] += 1
        levels[record.messageType, default: [0, 0]][side] += 1
    }

    /// A side's time span in minutes, at least one second's worth.
    func minutes(_ side: Int) -> Double {
        guard records[side] > 0 else { return 1.0 / 60 }
        return max(Double(last[side] - first[side]) / 60e9, 1.0 / 60)
    }
}
