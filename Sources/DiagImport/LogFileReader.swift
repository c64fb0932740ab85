import DiagModel
import Foundation

/// Reads the records of one log file in any `ImportFormat`, streaming in flat memory: read(2) in
/// 1 MiB blocks, lines split on bytes, Apple's JSON arrays element by element.
///
/// ```swift
/// let reader = try LogFileReader(path: "/var/log/syslog", options: ImportOptions(year: 2026))
/// try reader.forEach(record: { store.append($0) }, issue: { print($0) })
/// ```
///
/// A line that cannot be read becomes an `ImportIssue` (file, line, column, reason) and reading
/// goes on; only an I/O failure or an error thrown by a callback ends `forEach`, which rethrows it.
/// A reader reads its input once and is not thread-safe.
public final class LogFileReader {
    /// The format given in the options or detected from the first non-blank line; nil when the
    /// input holds nothing but whitespace (it then yields nothing).
    public let format: ImportFormat?
    /// The path, `<stdin>`, or the name given to bytes: what issues name as their file.
    public let source: String
    let options: ImportOptions
    let year: Int
    /// When the year was guessed: the file's modification time (or now), which lines should not pass.
    let latestTime: Int64?
    let stream: ByteStream

    /// Opens a file. Without `options.year`, syslog and logcat times are read in the year the
    /// file was last modified, or the year before for lines that would come after that time.
    public convenience init(path: String, options: ImportOptions = ImportOptions()) throws(ImportError) {
        let stream = try ByteStream(path: path)
        var info = stat()
        let modified = stat(path, &info) == 0 ? Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec)) : Date()
        try self.init(stream: stream, options: options, guessedFrom: modified)
    }

    /// Reads bytes in memory (tests, data already received); `name` is what issues call the file.
    public convenience init(bytes: [UInt8], name: String = "<bytes>", options: ImportOptions = ImportOptions()) throws(ImportError) {
        try self.init(stream: ByteStream(bytes: bytes, name: name), options: options, guessedFrom: Date())
    }

    /// Reads standard input (`diag import -`), leaving it open.
    public static func standardInput(options: ImportOptions = ImportOptions()) throws(ImportError) -> LogFileReader {
        try LogFileReader(fileDescriptor: STDIN_FILENO, name: "<stdin>", options: options)
    }

    /// Reads an open descriptor (a pipe, a socket, standard input) to its end, leaving it open;
    /// the caller keeps it open while the reader lives. Without `options.year`, the current year.
    public convenience init(fileDescriptor: Int32, name: String, options: ImportOptions = ImportOptions()) throws(ImportError) {
        try self.init(stream: ByteStream(descriptor: fileDescriptor, name: name), options: options, guessedFrom: Date())
    }

    /// `guessedFrom`: the time whose year is used when the options give none.
    private init(stream: ByteStream, options: ImportOptions, guessedFrom: Date) throws(ImportError) {
        self.stream = stream
        self.options = options
        source = stream.name
        year = options.year ?? Self.year(of: guessedFrom, in: options.timeZone)
        latestTime = options.year == nil ? Int64(guessedFrom.timeIntervalSince1970) * Timestamp.nanosecondsPerSecond : nil
        if let format = options.format {
            self.format = format
        } else {
            try Self.readDetectionPrefix(stream)
            format = try ImportFormat.detect(stream.available, source: stream.name)
        }
    }

    /// Reads until the first non-blank line is whole (or 64 KiB, or the end): enough to detect.
    private static func readDetectionPrefix(_ stream: ByteStream) throws(ImportError) {
        while stream.available.count < 64 << 10 {
            let bytes = stream.available
            if let firstContent = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }),
               bytes[firstContent...].contains(0x0A)
            {
                return
            }
            if try stream.fill(limit: ByteStream.blockSize).result == .endOfInput { return }
        }
    }

    private static func year(of date: Date, in timeZone: TimeZone) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.component(.year, from: date)
    }

    /// Calls `record` for each record in file order and `issue` for each line that could not be
    /// read (or was read with a repair, such as invalid UTF-8 replaced in a syslog line).
    public func forEach(record: (LogRecord) throws -> Void, issue: (ImportIssue) throws -> Void) throws {
        guard let format else { return }
        switch format {
        case .ndjson: try readJSONLines(record: record, issue: issue)
        case .journalJSON: try readJournalLines(record: record, issue: issue)
        case .appleJSON: try readJSONArray(record: record, issue: issue)
        case .syslog: try readSyslog(record: record, issue: issue)
        case .logcat: try readLogcat(record: record, issue: issue)
        case .journalExport: try readJournalExport(record: record, issue: issue)
        }
    }

    /// Every record and issue at once: for tests and small files.
    public func readAll() throws -> (records: [LogRecord], issues: [ImportIssue]) {
        var records: [LogRecord] = []
        var issues: [ImportIssue] = []
        try forEach(record: { records.append($0) }, issue: { issues.append($0) })
        return (records, issues)
    }

    func tooLong(_ length: Int) -> String {
        "a line of \(length) bytes is longer than the limit of \(options.maxLineLength) bytes; skipped"
    }

    static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }
}

// Safe to declare: a reader owns a file descriptor and a buffer it mutates while reading.
@available(*, unavailable)
extension LogFileReader: Sendable {}
