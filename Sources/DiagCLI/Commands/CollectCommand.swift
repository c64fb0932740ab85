import DiagBundle
import DiagCommandLine
import DiagModel
import DiagOutput
import DiagProtocol
import Foundation

/// `diag collect`: a bundle of the log store for a window, the components' store files, summaries
/// and a report, like a sysdiagnose.
struct CollectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "collect",
        abstract: "Write a bundle of the logs and the components' stores, to attach to a bug report.",
        discussion: """
            The bundle (diagnose_<date>_<host>.tar.gz) holds a consistent snapshot of the log store \
            for the window (with diagd's in-memory Debug records when it runs), each --store-file \
            snapshotted while its owner writes, manifest.json with every file's SHA-256, summaries \
            and report.html. Its path is the last line printed.
            """)

    @OptionGroup var bundle: BundleOptions
    @Option(name: "var", help: "NAME=VALUE: an identifier this bundle is about, recorded in the manifest.", valueName: "name=value")
    var variables: [String]
    @Option(help: "An identifier this bundle is about (NAME=VALUE or VALUE), recorded in the manifest.")
    var identifier: [String]
    @Option(help: TimezoneArgument.help(verb: "Read --start and --end", bundle: false))
    var timezone: String?
    @Option(help: "A bundle, store or log file to compare with: report.html begins with the patterns new, gone and changed since it (as diag report --baseline).", valueName: "source")
    var baseline: String?
    @Option(help: "Keep the bundle within SIZE bytes (K, M, G suffixes), with the newest records that fit, as log collect --size; summaries/left-out.txt says what was left out.", valueName: "size")
    var size: String?

    func run() throws {
        let options = try bundle.checked(variables: variables, identifiers: identifier, timezone: timezone)
        var request = options.request(kind: .collect)
        request.storeFiles = try BundleCommandOptions.checkedStoreFiles(bundle.storeFiles)
        request.baseline = try baseline.map { ReportBaseline(name: $0, miner: try BaselinePatterns.mine($0)) }
        try options.addDaemonRing(to: &request)
        if let size { return try CollectSizeLimit.collect(request, limit: try CollectSizeLimit.bytes(size)) }
        try BundleCommandOptions.collect(request)
    }
}

extension BundleCompression: ExpressibleByArgument {}

/// What `collect` and `feedback` share: the window, the output, the identifiers, the run.
struct BundleCommandOptions {
    var output: String?
    var window: BundleWindow
    var compression: BundleCompression
    var storePath: String
    var identifiers: [String: String]
    var created: Int64

    init(output: String?, start: String?, end: String?, last: String?, compression: BundleCompression?, store: String?,
         variables: [String], identifiers: [String], timezone: String?) throws {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        created = Int64(now.tv_sec) * Timestamp.nanosecondsPerSecond + Int64(now.tv_nsec)
        let zone = try TimezoneArgument.zone(timezone)
        if last != nil && start != nil {
            throw ValidationError("--last and --start cannot be used together: --last already sets the start")
        }
        window = BundleWindow(
            start: try start.map { try TimeArgument.instant($0, option: "--start", zone: zone) },
            end: try end.map { try TimeArgument.instant($0, option: "--end", zone: zone) })
        if let last {
            // The live store: counted back from now, or from this machine's boot.
            switch try LastArgument.parse(last) {
            case .duration(let length): window.start = created - length
            case .boot: window.start = LastArgument.bootTime()
            }
        }
        _ = try TimeWindow.checked(start: window.start, end: window.end, startName: last == nil ? "--start" : "--last")
        self.output = output
        let lowered = output?.lowercased() ?? ""
        let named = BundleCompression.allCases.first { lowered.hasSuffix($0.fileExtension) }
        if let named, let compression, named != compression {
            throw ValidationError("--output '\(output ?? "")' names a \(named.fileExtension) file but --compression is \(compression.rawValue); make them agree")
        }
        self.compression = compression ?? named ?? .gzip
        storePath = store ?? DefaultPaths.store()
        self.identifiers = try VariableArguments.parse(variables)
        for (index, value) in identifiers.enumerated() {
            if let equals = value.firstIndex(of: "="), equals != value.startIndex {
                self.identifiers[String(value[..<equals])] = String(value[value.index(after: equals)...])
            } else {
                self.identifiers[index == 0 ? "identifier" : "identifier\(index + 1)"] = value
            }
        }
    }

    func request(kind: BundleRequest.Kind) -> BundleRequest {
        var request = BundleRequest(kind: kind, storeDirectory: URL(fileURLWithPath: storePath, isDirectory: true),
                                    window: window, toolVersion: Diag.version, created: created)
        request.output = output
        request.compression = compression
        request.identifiers = identifiers
        return request
    }

    static func checkedStoreFiles(_ paths: [String]) throws -> [String] {
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                throw ValidationError("The value '\(path)' is invalid for '--store-file': no such file (a component's SQLite store file is expected)")
            }
        }
        return paths
    }

    /// Adds diagd's in-memory records when a daemon answers on the store's socket.
    func addDaemonRing(to request: inout BundleRequest) throws {
        let socket = DefaultPaths.socket(store: storePath)
        do {
            request.extraRecords = try DaemonRing.fetch(socketPath: socket) ?? []
        } catch let error as BundleError {
            throw RuntimeError(error.message)
        }
    }

    /// Runs the collection with a progress line on a terminal and prints the bundle's path last.
    static func collect(_ request: BundleRequest) throws {
        let showProgress = StandardStream.error.isTerminal
        do {
            let result = try BundleCollector(request: request).run { progress in
                guard showProgress else { return }
                let megabytes = Double(progress.archivedBytes) / 1_048_576
                StandardStream.error.write("\r\u{1B}[K\(progress.phase) — \(String(format: "%.1f", megabytes)) MB archived")
            }
            if showProgress { StandardStream.error.write("\r\u{1B}[K") }
            if let map = result.redactionMapPath {
                StandardStream.error.write("The redaction map stays here, outside the bundle: \(map)\n")
            }
            // The files the manifest lists, and the manifest itself (the archive's last entry,
            // which the readers' bound counts too): without it, the limit named for a bundle of
            // 10M records was 2,664 bytes short of what opens it, and diag show refused it.
            let unpacked = result.manifest.files.reduce(Int64(0)) { $0 + $1.size } + Int64(try result.manifest.jsonData().count)
            let bound = ExtractionLimits.configuredTotalSize()
            if unpacked > bound {
                // The readers' bound against decompression bombs (4 GiB unless DIAG_UNPACK_LIMIT
                // says otherwise) would refuse it: say so now, not when someone opens it.
                let mebibytes = (unpacked + (1 << 20) - 1) >> 20
                StandardStream.error.write("Note: this bundle unpacks to \(unpacked) bytes, over the \(bound) bytes diag show and diag verify unpack without \(ExtractionLimits.environmentVariable); to open it, run them with \(ExtractionLimits.environmentVariable)=\(mebibytes)M (or collect less: --last, --start, --size)\n")
            }
            StandardStream.output.write("\(result.path)\n")
        } catch let error as BundleError {
            if showProgress { StandardStream.error.write("\r\u{1B}[K") }
            if error.exitCode == 65 { throw InputError(error.message) }
            throw RuntimeError(error.message)
        }
    }
}
