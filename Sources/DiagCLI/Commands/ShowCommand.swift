import DiagCommandLine
import DiagImport
import DiagModel
import DiagOutput
import DiagQuery
import Foundation

/// `diag show`: the records of stores, bundles and log files that match, in time order, in one
/// of `log show`'s styles.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show log records from a store, bundles or log files.",
        discussion: """
            A SOURCE is a store directory, a bundle (.tar.gz, .tar.zst, .tar) or a plain log file: NDJSON, \
            Apple's log show --style json, BSD syslog, journalctl -o json or Android logcat. Without a SOURCE, \
            the default store: $DIAG_STORE, else $XDG_STATE_HOME/diag/system_logs.logarchive, else \
            ~/.local/state/diag/system_logs.logarchive.
            Records come out in time order; a plain file keeps its own order and several sources are \
            interleaved by time. Times are shown and read (--start, --end and the predicate's dates) \
            in --timezone, else $TZ, else the system's zone (/etc/localtime). \
            Without --info and --debug only Default, Error and Fault records show, as with log show. \
            Lines of a file that are not records are reported as FILE:LINE: reason on stderr; the \
            command then exits with status 65 after showing everything it could read.
            """)

    @OptionGroup var query: PredicateOptions<ShowWording>

    @OptionGroup var span: WindowOptions<ShowWording>

    @OptionGroup var filter: FilterOptions<ShowWording>

    @Flag(help: "Include signposts (eventType signpostEvent), as log show --signpost; left out by default.")
    var signpost: Bool

    @Flag(name: "no-signpost", help: "Leave signposts out (the default).")
    var noSignpost: Bool

    @Option(help: "Show only the records of this activity, across processes: its identifier in decimal or 0x hex, as the Activity column shows it.", valueName: "id")
    var activity: String?

    @OptionGroup var output: OutputOptions<BundleZone>

    @OptionGroup var lineYear: YearOptions
    private var year: Int? { lineYear.year }

    @Flag(help: "Annotate every record with its message pattern (json, ndjson: patternID and pattern; other styles: the ID first).")
    var patterns: Bool

    @Option(name: "pattern", help: "Show only the records of this pattern, by the ID diag patterns shows.", valueName: "id")
    var patternIDs: [String]

    // journalctl's shortcuts and the terminal (ShowShortcuts.swift, Pager.swift).
    @Option(name: "lines", short: "n", help: "Show only the last N records (journalctl -n), after every other selection.", valueName: "n")
    var lines: Int?

    @Flag(short: "r", help: "Show the newest records first (journalctl -r).")
    var reverse: Bool

    @Flag(short: "f", help: "Show the last 10 records (or -n N) of the store, then the new ones as diagd commits them, with the same filters, until interrupted (journalctl -f). For Debug records diagd keeps in memory, use diag stream.")
    var follow: Bool

    @Option(help: "Show only records whose message contains a match of this regular expression, in any case (journalctl --grep): eventMessage MATCHES[c] \"(?s).*(?:PATTERN).*\" ANDed with --predicate.", valueName: "pattern")
    var grep: String?

    @Flag(help: "Show where each record comes from, {IMAGE(MODULE)} before the message: the sender's image path, else its sender (log show --source). The json styles always carry senderImagePath.")
    var source: Bool

    @Flag(help: "Do not pipe the output into a pager ($DIAG_PAGER, else $PAGER, else less -FRX), which is used only when standard output is a terminal.")
    var noPager: Bool

    @Argument(help: "Stores, bundles or log files to read, - for standard input (default: the default store).", valueName: "source")
    var sources: [String]

    private var zone = DisplayZone.utc
    private var activityIdentifier: Int64?

    mutating func validate() throws {
        zone = try output.zone(sources: sources)
        try SignpostArgument.validate(signpost: signpost, noSignpost: noSignpost)
        if let activity {
            guard let identifier = ActivityArgument.identifier(activity) else {
                throw ValidationError("The value '\(activity)' is invalid for '--activity <id>'; accepted: a decimal number or 0x followed by hex digits, like 0x1a2b")
            }
            activityIdentifier = identifier
        }
        for id in patternIDs { try PatternIDArgument.check(id) }
        // The window is checked now, so a bad one is bad usage before any source is read.
        _ = try span.window(zone: zone)
        if let lines, lines < 0 {
            throw ValidationError("The value '\(lines)' is invalid for '--lines <n>'; accepted: 0 or more")
        }
        if sources.filter({ $0 == "-" }).count > 1 {
            throw ValidationError("- (standard input) can be read only once; give it once among the SOURCEs")
        }
    }

    func run() throws {
        Self.keepFreedMemory()
        let userText = try query.text()
        let predicateText = GrepArgument.restrict(
            SignpostArgument.restrict(
                ActivityArgument.restrict(userText, to: activityIdentifier),
                includeSignposts: signpost),
            to: grep)
        let querySources = try SourceArguments.resolve(sources)
        let variables = try SourceArguments.variables(for: querySources, overriding: query.boundVariables)
        let condition = try predicateText.map { try PredicateCondition.make($0, user: userText, variables: variables, zone: zone) }
        let options = ImportOptions(year: year, timeZone: zone.timeZone)
        let window = try span.window(zone: zone, sources: querySources, live: sources.isEmpty, options: options)
        let selection = filter.selection(in: window)
        let colored = output.color.enabled(isTerminal: isatty(STDOUT_FILENO) == 1)
        if follow {
            let source = try ShowFollow.check(sources: querySources, style: output.style, reverse: reverse)
            let sink = OutputSink.standardOutput()
            let printer = RecordPrinter(style: output.style, zone: zone, colored: colored, sink: sink)
            try ShowFollow(query: LogQuery(selection: selection, condition: condition), source: source).run(lines: lines, printer: printer, sink: sink)
        }
        let pager = Pager.start(disabled: noPager)
        let sink = OutputSink.standardOutput()
        defer { pager?.finish(flushing: sink) }
        let printer = RecordPrinter(style: output.style, zone: zone, colored: colored, sink: sink)
        let order = RecordOrder(lines: lines, reverse: reverse)
        let query = LogQuery(selection: selection, condition: condition)
        var refused = 0
        if patterns || !patternIDs.isEmpty {
            printer.showsPatterns = patterns
            let show = PatternAnnotatedShow(query: query, sources: querySources, options: options, selectedIDs: Set(patternIDs), order: order)
            return try show.run(printer: printer, sink: sink)
        }
        do {
            let lineStyle: RowLineStyle? = switch output.style {
            case .ndjson: .ndjson
            case .json: .json
            case .default, .compact, .syslog: source ? nil : printer.lineFormat.map { .text($0) }
            }
            if let lineStyle, order.isNatural, let rows = try query.openStoreRows(querySources, bundleOpener: SourceArguments.bundleOpener) {
                // One store or bundle: rows are formatted on the reading threads, in (ND)JSON
                // straight from the columns, undecoded, or as a text style's lines.
                printer.begin()
                defer { printer.finish() }
                let zone = self.zone
                try rows.writeLines(style: lineStyle, threads: ProcessInfo.processInfo.activeProcessorCount, offsets: {
                    var zone = zone
                    return { zone.offsetSeconds(at: $0) }
                }) { lines, count, kinds in
                    switch lineStyle {
                    case .ndjson: printer.writeNDJSON(lines: lines, count: count)
                    case .json: printer.writeJSONElements(lines, count: count)
                    case .text: printer.writeLines(lines, count: count, kinds: kinds)
                    }
                }
                return
            }
            let results = try query.open(querySources, bundleOpener: SourceArguments.bundleOpener, options: options) { issue in
                sink.flush()
                StandardStream.error.write("\(issue)\n")
            }
            printer.begin()
            defer { printer.finish() }
            let labelled = source && output.style != .json && output.style != .ndjson
            try order.emit(results.next, labelled ? { printer.write(SourceLabel.labelled($0)) } : printer.write)
            refused = results.refusedCount
        } catch let error as QueryError {
            throw error.isBadInput ? InputError(error.message) as any Error : RuntimeError(error.message)
        }
        pager?.finish(flushing: sink)
        if refused > 0 {
            let count = refused
            StandardStream.error.write("diag show: \(count) line\(count == 1 ? " was" : "s were") refused (not records); \(printer.count) record\(printer.count == 1 ? "" : "s") shown\n")
            throw ExitCode.dataError
        }
    }
}

extension ShowCommand {
    /// A store query opens and closes a SQLite connection per chunk, and each connection's
    /// caches are freed at its close. glibc gives freed memory back to the kernel past 128 KiB
    /// (and serves large blocks from fresh mappings), so every next chunk faults the same pages
    /// in again: 10,000 page faults, a third of a rare query's time over 43 chunks. Keeping up
    /// to 64 MiB freed in the process reuses them; the peak resident size stays what the live
    /// data needs (the RSS target is checked by Benchmarks/predicates.sh).
    ///
    /// One malloc arena for all threads: each reading thread otherwise gets an arena of its own,
    /// and each keeps its freed memory too. A phrase in one record of twenty through diagd at
    /// 10M records (a chain of chunks on two threads beside two chunks read apart) peaked at
    /// 76 MB with an arena per thread, 64 MB with one, and took 3.4 s instead of 3.5 s; the
    /// imported store's `MATCHES`, 42 MB instead of 51 MB and 3.2 s instead of 4.7 s.
    static func keepFreedMemory() {
        // glibc's mallopt, looked up because Swift's Glibc module leaves out <malloc.h>;
        // M_TRIM_THRESHOLD is -1, M_MMAP_THRESHOLD -3 and M_ARENA_MAX -8 there.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        _ = mallopt(-1, 64 << 20)
        _ = mallopt(-3, 64 << 20)
        _ = mallopt(-8, 1)
    }
}

extension OutputStyle: ExpressibleByArgument {}
extension ColorMode: ExpressibleByArgument {}
