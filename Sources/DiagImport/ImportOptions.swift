import DiagModel
import Foundation

/// How to read a log file.
public struct ImportOptions: Sendable {
    /// The year for formats whose lines carry none (syslog, logcat). Nil: the year the file was
    /// last modified (the current year for standard input and bytes), or the year before when the
    /// first line would come more than a day after that time. A line whose month is before the
    /// previous line's by more than six months starts the next year (Dec → Jan).
    public var year: Int?
    /// The format; nil detects it from the first non-blank line.
    public var format: ImportFormat?
    /// The zone in which syslog and logcat wall-clock times are read (they carry no offset).
    public var timeZone: TimeZone
    /// Lines (and Apple JSON array elements) longer than this are refused with an issue and
    /// skipped without being held in memory.
    public var maxLineLength: Int

    public init(year: Int? = nil, format: ImportFormat? = nil, timeZone: TimeZone = .current, maxLineLength: Int = 16 << 20) {
        self.year = year
        self.format = format
        self.timeZone = timeZone
        self.maxLineLength = maxLineLength
    }
}

/// A line (or array element) that could not be read as a record, or was read with a repair.
/// Reading goes on after an issue.
public struct ImportIssue: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path, `<stdin>`, or the name given to bytes.
    public var file: String
    /// 1-based line of the file where the refused line or element starts.
    public var line: Int
    /// 1-based byte column in that line, when the problem has a place.
    public var column: Int?
    public var reason: String

    public init(file: String, line: Int, column: Int? = nil, reason: String) {
        self.file = file
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// `file:line:column: reason`, as compilers print it.
    public var description: String {
        if let column { return "\(file):\(line):\(column): \(reason)" }
        return "\(file):\(line): \(reason)"
    }
}

/// Why a whole file could not be read.
public enum ImportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be opened or read (the path and the system's reason).
    case unreadable(path: String, reason: String)
    /// No format fits the first non-blank line, quoted here.
    case unknownFormat(source: String, firstLine: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .unknownFormat(let source, let firstLine):
            let formats = ImportFormat.allCases.map { "  \($0.name): \($0.summary)" }.joined(separator: "\n")
            return "unknown log format in \(source): the first line \"\(TerminalText.escaped(firstLine))\" is none of:\n\(formats)"
        }
    }
}
