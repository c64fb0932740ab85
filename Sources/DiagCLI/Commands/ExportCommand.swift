import DiagBundle
import DiagCommandLine
import DiagForward
import DiagImport
import DiagModel
import DiagOutput
import DiagQuery
import Foundation

/// `diag export`: the records of stores, bundles and log files in the encodings diagd forwards
/// (RFC 5424 frames, OTLP/JSON) or as NDJSON, so a bundle can be replayed into any pipeline.
struct ExportCommand: ParsableCommand {
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case rfc5424, otlpJSON = "otlp-json", ndjson
    }

    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write log records as RFC 5424 frames, OTLP/JSON requests or NDJSON.",
        discussion: """
            A SOURCE is a store directory, a bundle or a plain log file, as for diag show (default: the \
            default store). Every level is exported (no --info or --debug needed); narrow with a predicate, \
            a window, --process or --sender. rfc5424: one octet-counted frame per record (RFC 6587 3.4.1), \
            as diagd sends them to rsyslog. otlp-json: one ExportLogsServiceRequest per line, --batch-size \
            records each, as diagd POSTs them (uncompressed). ndjson: the lines of diag show --style ndjson. \
            The host is --host, else the bundle's host when every SOURCE is a bundle of one host, else this \
            machine's name. Times are written in --timezone, else $TZ, else the system's zone. See docs/EXPORT.md.
            """)

    @Option(help: "The encoding.")
    var format: Format
    @Option(help: "Write to this file instead of standard output (replaced only once the export succeeds).", valueName: "file")
    var output: String?
    @OptionGroup var query: PredicateOptions<ExportWording>
    @OptionGroup var span: WindowOptions<ExportWording>
    @OptionGroup var origin: OriginOptions<ExportWording>
    @Option(help: "The host name written in the records (HOSTNAME, host.name).", valueName: "name")
    var host: String?
    @Option(help: "The syslog facility of rfc5424 frames: 0 to 23 or a name (user, daemon, local0…).", valueName: "facility")
    var facility: String = "user"
    @Option(help: "Records per otlp-json request line, 1 to 100000.", valueName: "n")
    var batchSize: Int = 1000
    @Option(help: TimezoneArgument.help(verb: "Write and read times", bundle: true), valueName: "zone")
    var timezone: String?
    @Option(help: "The year of syslog and logcat lines, which carry none (default: the year the file was last modified).")
    var year: Int?
    @Argument(help: "Stores, bundles or log files to read (default: the default store).", valueName: "source")
    var sources: [String]

    private var zone = DisplayZone.utc
    private var facilityCode = 1

    mutating func validate() throws {
        if let code = Int(facility) ?? ForwardDestination.facilityNames.firstIndex(of: facility.lowercased()),
           RFC5424Encoder.facilities.contains(code) {
            facilityCode = code
        } else {
            throw ValidationError("The value '\(facility)' is invalid for '--facility <facility>'; accepted: 0 to 23 or \(ForwardDestination.facilityNames.joined(separator: ", "))")
        }
        guard (1...100_000).contains(batchSize) else {
            throw ValidationError("The value '\(batchSize)' is invalid for '--batch-size <n>'; accepted: 1 to 100000")
        }
        if let host, host.isEmpty { throw ValidationError("--host cannot be empty") }
        if let year, !(1970...9999).contains(year) {
            throw ValidationError("The value '\(year)' is invalid for '--year <year>'; accepted: 1970 to 9999")
        }
        zone = try TimezoneArgument.zone(timezone, sources: sources)
        // The window is checked now, so a bad one is bad usage before any source is read.
        _ = try span.window(zone: zone)
    }

    func run() throws {
        let predicateText = try query.text()
        let querySources = try SourceArguments.resolve(sources)
        let variables = try SourceArguments.variables(for: querySources, overriding: query.boundVariables)
        let condition = try predicateText.map { try PredicateCondition.make($0, variables: variables, zone: zone) }
        let window = try span.window(zone: zone, sources: querySources, live: sources.isEmpty, options: ImportOptions(year: year, timeZone: zone.timeZone))
        let selection = RecordSelection(
            start: window.start, end: window.end, includeInfo: true, includeDebug: true,
            processes: origin.process.map(RecordSelection.ProcessSelector.init), senders: origin.sender)
        let destination = try ExportDestination(path: output)
        let writer = ExportWriter(
            format: format, hostName: host ?? Self.hostName(of: querySources), facility: facilityCode,
            zone: zone, batchSize: batchSize, sink: destination.sink)
        var committed = false
        defer { if !committed { destination.discard() } }
        let refused: Int
        do {
            let results = try LogQuery(selection: selection, condition: condition).open(
                querySources, bundleOpener: SourceArguments.bundleOpener,
                options: ImportOptions(year: year, timeZone: zone.timeZone)
            ) { issue in
                StandardStream.error.write("\(issue)\n")
            }
            while destination.sink.failure == nil, let record = try results.next() { writer.write(record) }
            writer.finish()
            refused = results.refusedCount
        } catch let error as QueryError {
            throw error.isBadInput ? InputError(error.message) as any Error : RuntimeError(error.message)
        }
        try destination.commit()
        committed = true
        if refused > 0 {
            StandardStream.error.write("diag export: \(refused) line\(refused == 1 ? " was" : "s were") refused (not records); \(writer.count) record\(writer.count == 1 ? "" : "s") exported\n")
            throw ExitCode.dataError
        }
    }

    /// The bundles' host when every source is a bundle and they agree, else this machine's name.
    private static func hostName(of sources: [QuerySource]) -> String {
        var hosts: Set<String> = []
        for source in sources {
            guard case .bundle(let path) = source,
                  let host = try? BundleStoreOpener().open(path).bundle.manifest.host else { return RFC5424Encoder.localHostname() }
            hosts.insert(host)
        }
        return hosts.count == 1 ? hosts.first! : RFC5424Encoder.localHostname()
    }
}

/// Turns records into the chosen encoding on an `OutputSink`.
private final class ExportWriter {
    private let format: ExportCommand.Format
    private let sink: OutputSink
    private let batchSize: Int
    private var zone: DisplayZone
    private let otlp: OTLPLogsEncoder
    private let printer: RecordPrinter
    private let hostName: String
    private let facility: Int
    /// One RFC 5424 encoder per UTC offset met (a zone with summer time has two).
    private var syslogEncoders: [Int: RFC5424Encoder] = [:]
    private var batch: [LogRecord] = []
    private(set) var count = 0

    init(format: ExportCommand.Format, hostName: String, facility: Int, zone: DisplayZone, batchSize: Int, sink: OutputSink) {
        self.format = format
        self.sink = sink
        self.batchSize = batchSize
        self.zone = zone
        self.hostName = hostName
        self.facility = facility
        otlp = OTLPLogsEncoder(hostName: hostName)
        printer = RecordPrinter(style: .ndjson, zone: zone, hostName: hostName, sink: sink)
    }

    func write(_ record: LogRecord) {
        count += 1
        switch format {
        case .ndjson:
            printer.write(record)
        case .rfc5424:
            let offset = zone.offsetSeconds(at: record.timestamp)
            let encoder = syslogEncoders[offset] ?? RFC5424Encoder(facility: facility, hostname: hostName, utcOffset: offset)
            syslogEncoders[offset] = encoder
            sink.withBuffer { encoder.appendFrame(for: record, to: &$0) }
        case .otlpJSON:
            batch.append(record)
            if batch.count == batchSize { flushBatch() }
        }
    }

    func finish() {
        if !batch.isEmpty { flushBatch() }
        sink.flush()
    }

    private func flushBatch() {
        var json = JSONWriter(reservingCapacity: batch.count * 500)
        otlp.appendRequest(for: batch, to: &json)
        json.bytes.append(UInt8(ascii: "\n"))
        sink.write(json.bytes)
        batch.removeAll(keepingCapacity: true)
    }
}

/// Standard output, or a file written beside its final name and renamed there on success.
private struct ExportDestination {
    let sink: OutputSink
    private let path: String?
    private let temporary: String?

    init(path: String?) throws {
        guard let path else {
            sink = OutputSink.standardOutput()
            self.path = nil
            temporary = nil
            return
        }
        let url = URL(fileURLWithPath: path)
        let partial = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).partial").path
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw RuntimeError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        sink = OutputSink(descriptor: descriptor)
        self.path = path
        temporary = partial
    }

    /// Flushes, and moves a file into place; on failure the caller discards.
    func commit() throws {
        sink.flush()
        if let failure = sink.failure {
            // A reader of standard output that went away (`| head`) only ends the export.
            if path == nil && failure == EPIPE { return }
            throw RuntimeError("cannot write \(path ?? "standard output"): \(String(cString: strerror(failure)))")
        }
        guard let path, let temporary else { return }
        guard fsync(sink.descriptor) == 0, rename(temporary, path) == 0 else {
            throw RuntimeError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        close(sink.descriptor)
    }

    /// Removes the partial file of an export that failed.
    func discard() {
        guard let temporary else { return }
        close(sink.descriptor)
        unlink(temporary)
    }
}
