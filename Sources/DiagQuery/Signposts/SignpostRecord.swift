import DiagModel

/// What a record says as a signpost: its kind and the scope its ID is unique in, read from the
/// text a component or Apple's `log` wrote (`begin` or `intervalBegin`, any case).
public enum SignpostKind: String, Sendable, Hashable {
    case begin, end, event

    public init?(text: String?) {
        // The common spellings first, without lowering a copy of the text for each record.
        switch text {
        case nil: return nil
        case "begin": self = .begin; return
        case "end": self = .end; return
        case "event": self = .event; return
        default: break
        }
        switch text?.lowercased() {
        case "begin", "intervalbegin": self = .begin
        case "end", "intervalend": self = .end
        case "event": self = .event
        default: return nil
        }
    }
}

/// Apple's signpost scopes. A record without one is process-scoped, Apple's default; a scope
/// the tool does not know is read as process too (and named as sent in the output).
public enum SignpostScopeKind: String, Sendable, Hashable {
    case thread, process, system

    public init(text: String?) {
        switch text?.lowercased() {
        case "thread": self = .thread
        case "system": self = .system
        default: self = .process
        }
    }
}

/// The key a begin and its end share: scope owner, subsystem, category, name and ID.
struct IntervalKey: Hashable {
    /// The process (ID, else name) for process and thread scope; nil for system scope.
    var processID: Int64?
    var process: String?
    /// The thread, for thread scope only.
    var threadID: Int64?
    var subsystem: String?
    var category: String?
    var name: String
    var signpostID: Int64?

    init(_ record: LogRecord, name: String, scope: SignpostScopeKind) {
        switch scope {
        case .system:
            break
        case .process:
            processID = record.processID
            process = record.processID == nil ? record.process : nil
        case .thread:
            processID = record.processID
            process = record.processID == nil ? record.process : nil
            threadID = record.threadID
        }
        subsystem = record.subsystem
        category = record.category
        self.name = name
        signpostID = record.signpostID
    }
}

/// Statistics are kept per interval name within its subsystem and category.
public struct IntervalName: Hashable, Sendable, Comparable {
    public var subsystem: String
    public var category: String
    public var name: String

    public static func < (left: IntervalName, right: IntervalName) -> Bool {
        (left.name, left.subsystem, left.category) < (right.name, right.subsystem, right.category)
    }
}

/// One side of an interval as the output shows it.
public struct SignpostMark: Sendable {
    public var timestamp: Int64
    public var process: String?
    public var processID: Int64?
    public var threadID: Int64?
    public var subsystem: String?
    public var category: String?
    public var name: String
    public var signpostID: Int64?
    public var scope: String
    public var message: String

    init(_ record: LogRecord, name: String) {
        timestamp = record.timestamp
        process = record.process
        processID = record.processID
        threadID = record.threadID
        subsystem = record.subsystem
        category = record.category
        self.name = name
        signpostID = record.signpostID
        scope = record.signpostScope ?? SignpostScopeKind.process.rawValue
        message = record.eventMessage
    }
}

/// A begin paired with its end, or an activity from its creation to its last record.
public struct Interval: Sendable {
    public enum Kind: String, Sendable { case signpost, activity }
    public var kind: Kind
    public var begin: SignpostMark
    public var endTimestamp: Int64
    public var endMessage: String
    /// For activities: the processes its records came from (at most `ActivitySpans.processLimit`).
    public var processes: [String] = []
    public var recordCount: Int = 0

    public var duration: Int64 { endTimestamp - begin.timestamp }
    public var name: IntervalName {
        IntervalName(subsystem: begin.subsystem ?? "", category: begin.category ?? "", name: begin.name)
    }
}
