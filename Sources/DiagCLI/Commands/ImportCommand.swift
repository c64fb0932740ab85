import DiagAppleLog
import DiagCommandLine
import DiagImport
import DiagModel
import DiagOutput
import DiagQuery
import DiagStore
import Foundation

/// `diag import`: reads log files of any supported format into a store. Each chunk the import
/// closes is sealed and gets its message search index on another thread while the import goes
/// on; the command returns once every chunk it wrote has both (no `diag index` needed).
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import log files into a log store.",
        discussion: """
            Formats are detected from content: NDJSON (ours or log show --style ndjson), log show \
            --style json, BSD syslog, journalctl -o json, Android logcat threadtime, Apple's tracev3 \
            files and .logarchive folders (docs/APPLE-LOGS.md). A FILE of - reads standard input. \
            Syslog and logcat times are read in $TZ, else the system zone (/etc/localtime). Lines that are not \
            records are reported as FILE:LINE: reason and counted; the others are imported, and the \
            command exits with status 65.
            """,
        usage: "diag import [--store <directory>] [--year <year>] <file> ...")

    @Option(help: "The store directory, created if missing (default: $DIAG_STORE, else the state directory's system_logs.logarchive).", valueName: "directory")
    var store: String?

    @OptionGroup var lineYear: YearOptions
    private var year: Int? { lineYear.year }

    @Argument(help: "The log files to import.", valueName: "file")
    var files: [String]

    static let batchSize = 8192

    mutating func validate() throws {
        if files.isEmpty { throw ValidationError("Missing expected argument '<file> ...'") }
    }

    func run() throws {
        let url = StoreLocation.resolve(store)
        let logStore: LogStore
        do {
            logStore = try LogStore.open(at: url, create: true, options: LogStore.Options(sealOnRotation: false))
        } catch let error as StoreError {
            throw RuntimeError(error.description)
        }
        let options = ImportOptions(year: year, timeZone: DisplayZone.fromEnvironment().timeZone)
        var tally = ImportTally()
        let progress = ImportProgress(enabled: StandardStream.error.isTerminal)
        let finisher = ClosedChunkFinisher(store: logStore, label: "diag-indexing")
        // Chunks an earlier import or `diag index`-less store left without an index get one too.
        if finisher.hasWork { finisher.requestPass() }
        for file in files {
            if file != "-", !StoreLayout.hasInfo(URL(fileURLWithPath: file)), AppleLogArchive.recognizes(file) {
                try importAppleLogs(file, into: logStore, tally: &tally, progress: progress)
                continue
            }
            if SourceResolver.bundleSuffixes.contains(where: { file.lowercased().hasSuffix($0) }),
               let apple = try SourceArguments.bundleOpener?.appleLogArchive(inArchive: file) {
                try importAppleLogs(apple, into: logStore, tally: &tally, progress: progress)
                continue
            }
            let name = file == "-" ? "<stdin>" : file
            let storedBefore = tally.records
            do {
                let reader = try ThreadedFileReader(file == "-" ? .standardInput : .path(file), options: options)
                try importFile(reader, name: name, into: logStore, tally: &tally, progress: progress, finisher: finisher)
            } catch let error as ImportError {
                progress.clear()
                StandardStream.error.write("Error: \(error.description)\n")
                tally.failedFiles += 1
                if case .unreadable = error { tally.unreadable = true }
            } catch let error as StoreError {
                progress.clear()
                throw RuntimeError(error.description + "\n" + tally.keptAfterFailure(file: name, ofFile: tally.records - storedBefore))
            }
        }
        do {
            try logStore.rotate()
            progress.show("Building the message search index")
            finisher.requestPass()
            try finisher.wait()
            progress.clear()
            try logStore.close()
        } catch let error as StoreError {
            progress.clear()
            throw RuntimeError(error.description + "\nThe \(tally.records) record\(tally.records == 1 ? " was" : "s were") stored; "
                + "a chunk may lack its search index, which the next `diag import` or `diag index` of the store builds")
        }
        StandardStream.output.write(tally.summary(store: url.path))
        if tally.unreadable { throw ExitCode.failure }
        if tally.refused > 0 || tally.failedFiles > 0 { throw ExitCode.dataError }
    }

    /// Decoding runs on the reader's thread while this one inserts: the two overlap.
    private func importFile(
        _ reader: ThreadedFileReader, name: String, into logStore: LogStore, tally: inout ImportTally, progress: ImportProgress,
        finisher: ClosedChunkFinisher
    ) throws {
        var batch: [LogRecord] = []
        batch.reserveCapacity(Self.batchSize)
        var fileRecords = 0
        // A read that fails part way keeps what came before it.
        func nextBatch() throws -> [ThreadedFileReader.Item]? {
            do {
                return try reader.nextBatch()
            } catch {
                try logStore.append(batch)
                tally.records += batch.count
                progress.clear()
                throw error
            }
        }
        while let items = try nextBatch() {
            for item in items {
                switch item {
                case .record(let record):
                    batch.append(record)
                case .issue(let issue):
                    progress.clear()
                    StandardStream.error.write("\(issue)\n")
                    tally.refused += 1
                }
            }
            if batch.count >= Self.batchSize {
                try logStore.append(batch)
                fileRecords += batch.count
                tally.records += batch.count
                batch.removeAll(keepingCapacity: true)
                progress.update(file: name, records: fileRecords)
                if finisher.isIdle && logStore.closedChunksAwaitingSearchIndex > 0 { finisher.requestPass() }
            }
        }
        try logStore.append(batch)
        tally.records += batch.count
        progress.clear()
        tally.files += 1
    }
}

/// What an import did, for its closing line.
struct ImportTally {
    var files = 0
    var records = 0
    var refused = 0
    var failedFiles = 0
    var unreadable = false

    /// What a store that failed part way through `file` keeps: every batch appended before the
    /// failure was committed (a batch is one transaction), so importing the file again would
    /// store those records twice.
    func keptAfterFailure(file: String, ofFile: Int) -> String {
        guard records > 0 else { return "This import stored no record." }
        var line = "The store keeps the \(records) record\(records == 1 ? "" : "s") this import stored before the error"
        guard ofFile > 0 else { return line + "; none of them from \(file)." }
        if ofFile != records { line += ", \(ofFile) of them from \(file)" }
        return line + ": importing \(file) again would store \(ofFile == 1 ? "that record" : "its first \(ofFile) records") twice."
    }

    func summary(store: String) -> String {
        var line = "Imported \(records) record\(records == 1 ? "" : "s") from \(files) file\(files == 1 ? "" : "s") into \(store)"
        if refused > 0 { line += "; \(refused) line\(refused == 1 ? " was" : "s were") refused" }
        if failedFiles > 0 { line += "; \(failedFiles) file\(failedFiles == 1 ? "" : "s") could not be read" }
        return line + "\n"
    }
}

/// A progress line on a terminal's stderr, rewritten at most four times a second.
final class ImportProgress {
    private let enabled: Bool
    private var lastUpdate = ContinuousClock.now
    private var shown = false

    init(enabled: Bool) { self.enabled = enabled }

    func update(file: String, records: Int) {
        guard enabled, ContinuousClock.now - lastUpdate > .milliseconds(250) else { return }
        lastUpdate = .now
        shown = true
        StandardStream.error.write("\r\u{1B}[KImporting \(file): \(records) records")
    }

    /// A line that stays until `clear`, whatever the rate limit.
    func show(_ text: String) {
        guard enabled else { return }
        shown = true
        StandardStream.error.write("\r\u{1B}[K\(text)…")
    }

    func clear() {
        guard shown else { return }
        shown = false
        StandardStream.error.write("\r\u{1B}[K")
    }
}
