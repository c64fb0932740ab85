import DiagCommandLine
import DiagImport
import DiagModel
import DiagOutput
import DiagQuery
import DiagStore
import Foundation

/// `diag stats`: how many records, and how many bytes of messages, per process, sender,
/// subsystem, category, level and minute, like `log stats`. Stores answer with aggregate SQL
/// (counted, never fetched) when the predicate is decided entirely in SQL; otherwise records are
/// streamed and counted here.
struct StatsCommand: ParsableCommand {
    enum Style: String, CaseIterable, ExpressibleByArgument { case human, json }
    enum SortKey: String, CaseIterable, ExpressibleByArgument { case events, bytes }

    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Count log records per process, sender, subsystem, category, level and minute.",
        discussion: """
            A SOURCE is a store directory, a bundle or a plain log file, as for diag show (default: the \
            default store). Every level is counted. Bytes are the UTF-8 bytes of the messages. On stores \
            and bundles the counts come from aggregate SQL when the predicate is decided entirely in SQL; \
            a predicate with a residual (or a plain file) is counted record by record, and --style json \
            says which was done.
            """)

    @OptionGroup var query: PredicateOptions<CountWording>
    @OptionGroup var span: WindowOptions<CountWording>
    @OptionGroup var table: StatsTableOptions
    @Option(help: TimezoneArgument.help, valueName: "zone")
    var timezone: String?
    // log stats' subjects (StatsSubjects.swift).
    @Flag(help: "Show only the totals and the levels, without the per-process, sender, subsystem, category and minute tables (log stats --overview).")
    var overview: Bool
    @OptionGroup var origin: OriginOptions<CountWording>
    @Argument(help: "Stores, bundles or log files to count (default: the default store).", valueName: "source")
    var sources: [String]

    private var zone = DisplayZone.utc
    private var window = TimeWindow()

    mutating func validate() throws {
        zone = try TimezoneArgument.zone(timezone, sources: sources)
        window = try span.window(zone: zone)
    }

    mutating func run() throws {
        let text = StatsSubjects.restrict(try query.text(), processes: origin.process, senders: origin.sender)
        let querySources = try SourceArguments.resolve(sources)
        let variables = try SourceArguments.variables(for: querySources, overriding: query.boundVariables)
        let condition = try text.map { try PredicateCondition.make($0, variables: variables, zone: zone) }
        window = try span.window(zone: zone, sources: querySources, live: sources.isEmpty, options: ImportOptions(timeZone: zone.timeZone))
        var tally = StatsTally()
        let hasFile = querySources.contains { switch $0 { case .file, .appleLog: true; default: false } }
        let method: String, reason: String?
        if !hasFile, condition?.residual == nil {
            try countInSQL(querySources, condition: condition, into: &tally)
            (method, reason) = ("sql-aggregate", nil)
        } else {
            try countStreamed(querySources, condition: condition, into: &tally)
            method = "streamed"
            reason = hasFile ? "a plain log file is read record by record" : "the predicate has a part SQL cannot decide (a residual)"
        }
        let report = StatsReport(tally: tally, sort: table.sort, limit: table.limit, zone: zone)
        let sink = OutputSink.standardOutput()
        switch table.style {
        case .human: sink.write(report.human(method: method, reason: reason, predicate: text, overview: overview))
        case .json: sink.write(report.json(method: method, residual: condition?.residual != nil, reason: reason, predicate: text))
        }
        sink.flush()
    }

    private func countInSQL(_ sources: [QuerySource], condition: QueryCondition?, into tally: inout StatsTally) throws {
        let filter = StoreFilter(
            start: [window.start, condition?.start].compactMap { $0 }.max(),
            end: [window.end, condition?.end].compactMap { $0 }.min(),
            whereSQL: condition?.sqlWhere, bindings: condition?.bindings ?? [],
            messageSearch: condition?.messageSearch ?? [])
        for source in sources {
            var opened: (any OpenedBundleStore)?
            let url: URL
            switch source {
            case .store(let store): url = store
            case .bundle(let path):
                guard let opener = SourceArguments.bundleOpener else { throw RuntimeError("\(path): this build of diag cannot read bundles") }
                opened = try opener.openStore(inBundle: path)
                url = opened!.storeURL
            case .file, .appleLog: continue
            }
            do {
                let store = try LogStore.openForReading(at: url)
                for grouping in StoreGrouping.allCases {
                    for group in try store.groupedCounts(by: grouping, filter: filter) {
                        tally.add(grouping, group.key, events: group.count, bytes: group.messageBytes)
                    }
                }
            } catch let error as StoreError {
                throw RuntimeError(error.description)
            }
            withExtendedLifetime(opened) {}
        }
    }

    private func countStreamed(_ sources: [QuerySource], condition: QueryCondition?, into tally: inout StatsTally) throws {
        let selection = RecordSelection(start: window.start, end: window.end, includeInfo: true, includeDebug: true)
        let results = try LogQuery(selection: selection, condition: condition)
            .open(sources, bundleOpener: SourceArguments.bundleOpener, options: ImportOptions(timeZone: zone.timeZone)) { issue in
                StandardStream.error.write("\(issue)\n")
            }
        while let record = try results.next() { tally.add(record) }
        if results.refusedCount > 0 {
            StandardStream.error.write("diag stats: \(results.refusedCount) lines were refused (not records) and not counted\n")
        }
    }
}

/// Events and bytes per key of each grouping.
struct StatsTally {
    var groups: [StoreGrouping: [SQLValue: (events: Int64, bytes: Int64)]] = [:]

    mutating func add(_ grouping: StoreGrouping, _ key: SQLValue, events: Int64, bytes: Int64) {
        let old = groups[grouping, default: [:]][key] ?? (0, 0)
        groups[grouping, default: [:]][key] = (old.events + events, old.bytes + bytes)
    }

    mutating func add(_ record: LogRecord) {
        let bytes = Int64(record.eventMessage.utf8.count)
        func text(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
        add(.process, text(record.process), events: 1, bytes: bytes)
        add(.sender, text(record.sender), events: 1, bytes: bytes)
        add(.subsystem, text(record.subsystem), events: 1, bytes: bytes)
        add(.category, text(record.category), events: 1, bytes: bytes)
        add(.messageType, .int(Int64(record.messageType.rawValue)), events: 1, bytes: bytes)
        let minute: Int64 = 60 * Timestamp.nanosecondsPerSecond
        let floor = record.timestamp - ((record.timestamp % minute) + minute) % minute
        add(.minute, .int(floor), events: 1, bytes: bytes)
    }
}
