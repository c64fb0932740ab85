import DiagModel

/// The line of a record in one of the text styles (default, compact, syslog), apart from the
/// printer that writes it: a value each reading thread can hold, so that a query's lines are
/// formatted where its rows are read (`diag show` over one store, `StoreRows`), and appended to
/// the output in order there.
public struct RecordLineFormat: Sendable {
    /// `.default`, `.compact` or `.syslog`.
    public let style: OutputStyle
    public let colored: Bool
    public let hostName: String

    /// nil for the json styles, which are not lines of text.
    public init?(style: OutputStyle, colored: Bool = false, hostName: String = "localhost") {
        guard style == .default || style == .compact || style == .syslog else { return nil }
        self.style = style
        self.colored = colored
        self.hostName = hostName
    }

    /// Appends the record's line, its newline included.
    public func append(_ record: LogRecord, offset: Int, to line: inout [UInt8]) {
        switch style {
        case .compact: appendCompactLine(record, offset: offset, to: &line)
        case .syslog: appendSyslogLine(record, offset: offset, to: &line)
        default: appendDefaultLine(record, offset: offset, to: &line)
        }
    }
}

/// What a record counts for in the default style's closing lines (`LevelSummary`): its level,
/// or its kind of activity event or a user action.
public enum SummaryKind: UInt8, Sendable, CaseIterable {
    case `default`, info, debug, error, fault, activityCreate, activityTransition, userAction

    public init(_ record: LogRecord) {
        switch record.eventType {
        case .activityCreateEvent: self = .activityCreate
        case .activityTransitionEvent: self = .activityTransition
        case .userActionEvent: self = .userAction
        default:
            switch record.messageType {
            case .default: self = .default
            case .info: self = .info
            case .debug: self = .debug
            case .error: self = .error
            case .fault: self = .fault
            }
        }
    }
}

/// How many lines of each `SummaryKind` a block of lines holds: eight counters in a value, no
/// allocation (one is made for every block and every run of lines a merge copies).
public struct SummaryCounts: Sendable, Equatable {
    private var counts = SIMD8<Int>()

    public init() {}

    public subscript(kind: SummaryKind) -> Int { counts[Int(kind.rawValue)] }

    public mutating func add(_ kind: SummaryKind) {
        counts[Int(kind.rawValue)] &+= 1
    }

    public mutating func add(_ other: SummaryCounts) {
        counts &+= other.counts
    }
}
