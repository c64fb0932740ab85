import DiagCommandLine
import DiagImport
import DiagModel
import DiagOutput
import DiagQuery
import Foundation

/// `diag signposts`: what took long. Signpost begins and ends paired into intervals, with their
/// statistics per name, events counted, unmatched begins and ends reported; with --activities,
/// activities too, from creation to last record across processes.
struct SignpostsCommand: ParsableCommand {
    enum Style: String, CaseIterable, ExpressibleByArgument { case `default`, json, ndjson }

    static let configuration = CommandConfiguration(
        commandName: "signposts",
        abstract: "Pair signpost intervals and show how long each kind took.",
        discussion: """
            Sources and filters are those of diag show (signposts are Default records; Info and Debug \
            records are read too). A begin and an end pair when their scope owner (the process for \
            process scope, the default; the thread for thread scope; nothing for system scope), \
            subsystem, category, name and signpost ID agree; two open begins of one key end first-in \
            first-out. For each name: count, total, min, mean, p50, p90, p99 and max (nearest rank; \
            exact up to 4096 intervals of a name, then within 0.6%) and a histogram by decade. Events \
            are counted per name. Begins never ended and ends never begun are listed as unmatched. \
            At most --open-limit intervals are open at once: past it the oldest open begin is given \
            up and counted as overflow. --activities adds each activity as an interval, from its \
            creation to its last record in any process. --intervals lists every interval, in the \
            order they end (activities last).
            """)

    @OptionGroup var query: PredicateOptions<ReadWording>

    @OptionGroup var span: WindowOptions<ReadWording>

    @Option(help: "Only this process, by ID or name.", valueName: "pid|name")
    var process: [String]

    @Option(help: "Only records logged by this sender (library or module).", valueName: "name")
    var sender: [String]

    @Flag(help: "List every interval: start, duration, process, name, the begin and end messages.")
    var intervals: Bool

    @Flag(help: "Add activities as intervals, from creation to their last record across processes.")
    var activities: Bool

    @Option(help: "The most intervals (and activities) open at once.", valueName: "count")
    var openLimit: Int = 100_000

    @Option(help: "The output style.")
    var style: Style = .default

    @Option(help: TimezoneArgument.help(verb: "Show and read times", bundle: true), valueName: "zone")
    var timezone: String?

    @OptionGroup var lineYear: YearOptions
    private var year: Int? { lineYear.year }

    @Argument(help: "Stores, bundles or log files to read (default: the default store).", valueName: "source")
    var sources: [String]

    private var zone = DisplayZone.utc

    mutating func validate() throws {
        guard (1...10_000_000).contains(openLimit) else {
            throw ValidationError("The value '\(openLimit)' is invalid for '--open-limit <count>'; accepted: 1 to 10000000")
        }
        zone = try TimezoneArgument.zone(timezone, sources: sources)
        // The window is checked now, so a bad one is bad usage before any source is read.
        _ = try span.window(zone: zone)
    }

    func run() throws {
        ShowCommand.keepFreedMemory()
        let querySources = try SourceArguments.resolve(sources)
        let variables = try SourceArguments.variables(for: querySources, overriding: query.boundVariables)
        // Only the records the analysis reads: the SQL part skips the rest inside SQLite.
        let wanted = activities
            ? "(eventType == signpostEvent OR (activityIdentifier != nil AND activityIdentifier != 0))"
            : "eventType == signpostEvent"
        let user = try query.text()
        let text = user.map { "(\($0)\n) AND \(wanted)" } ?? wanted
        let condition = try PredicateCondition.make(text, user: user, variables: variables, zone: zone)
        let options = ImportOptions(year: year, timeZone: zone.timeZone)
        let window = try span.window(zone: zone, sources: querySources, live: sources.isEmpty, options: options)
        let selection = RecordSelection(
            start: window.start, end: window.end, includeInfo: true, includeDebug: true,
            processes: process.map(RecordSelection.ProcessSelector.init), senders: sender)
        let query = LogQuery(selection: selection, condition: condition)
        let writer = SignpostsWriter(style: style, zone: zone, listIntervals: intervals, sink: OutputSink.standardOutput())
        var analysis = SignpostAnalysis(openLimit: openLimit, activities: activities)
        var refused = 0
        do {
            let results = try query.open(querySources, bundleOpener: SourceArguments.bundleOpener,
                                         options: options) { issue in
                StandardStream.error.write("\(issue)\n")
            }
            writer.begin()
            // Reading and decoding on one core, pairing on the other.
            let records = ReadAheadRecords(results)
            while let record = try records.next() {
                if let interval = analysis.take(record) { writer.interval(interval) }
            }
            refused = records.refusedCount
        } catch let error as QueryError {
            throw error.isBadInput ? InputError(error.message) as any Error : RuntimeError(error.message)
        }
        for activity in analysis.finish() { writer.interval(activity) }
        writer.finish(analysis)
        if refused > 0 {
            StandardStream.error.write("diag signposts: \(refused) line\(refused == 1 ? " was" : "s were") refused (not records)\n")
            throw ExitCode.dataError
        }
    }
}
