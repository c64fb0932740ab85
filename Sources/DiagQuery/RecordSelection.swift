import DiagModel

/// The selections `log show` makes besides the predicate: levels, processes, senders and a time
/// window. Checked in Swift on any record, and turned into SQL for the store.
public struct RecordSelection: Sendable, Hashable {
    /// `--process`: a number is a process ID, anything else a process name.
    public enum ProcessSelector: Sendable, Hashable {
        case id(Int64)
        case name(String)

        public init(_ text: String) {
            if let number = Int64(text), number >= 0 { self = .id(number) } else { self = .name(text) }
        }
    }

    /// Nanoseconds since the epoch: records at or after `start` and before `end`.
    public var start: Int64?
    public var end: Int64?
    /// The levels shown: Default, Error and Fault always; Info with `--info`, Debug with `--debug`.
    public var levels: Set<MessageType>
    public var processes: [ProcessSelector]
    public var senders: [String]

    public init(
        start: Int64? = nil, end: Int64? = nil, includeInfo: Bool = false, includeDebug: Bool = false,
        processes: [ProcessSelector] = [], senders: [String] = []
    ) {
        self.start = start
        self.end = end
        var levels: Set<MessageType> = [.default, .error, .fault]
        if includeInfo { levels.insert(.info) }
        if includeDebug { levels.insert(.debug) }
        self.levels = levels
        self.processes = processes
        self.senders = senders
    }

    public func matches(_ record: LogRecord) -> Bool {
        if let start, record.timestamp < start { return false }
        if let end, record.timestamp >= end { return false }
        guard levels.contains(record.messageType) else { return false }
        if !processes.isEmpty {
            let matched = processes.contains { selector in
                switch selector {
                case .id(let id): record.processID == id
                case .name(let name): record.process == name
                }
            }
            if !matched { return false }
        }
        if !senders.isEmpty {
            guard let sender = record.sender, senders.contains(sender) else { return false }
        }
        return true
    }

    /// The same selection (without the window, which the store takes apart) as an SQL condition
    /// over the chunk columns, with `?` placeholders and the values to bind; nil when it selects all.
    public var sqlCondition: (sql: String, bindings: [SQLValue])? {
        var clauses: [String] = []
        var bindings: [SQLValue] = []
        if levels.count < MessageType.allCases.count {
            let codes = MessageType.allCases.filter { levels.contains($0) }
            clauses.append("messageType IN (" + codes.map { _ in "?" }.joined(separator: ", ") + ")")
            bindings += codes.map { .int(Int64($0.rawValue)) }
        }
        if !processes.isEmpty {
            let alternatives = processes.map { selector -> String in
                switch selector {
                case .id(let id):
                    bindings.append(.int(id))
                    return "processID = ?"
                case .name(let name):
                    bindings.append(.text(name))
                    return "process = ?"
                }
            }
            clauses.append("(" + alternatives.joined(separator: " OR ") + ")")
        }
        if !senders.isEmpty {
            clauses.append("sender IN (" + senders.map { _ in "?" }.joined(separator: ", ") + ")")
            bindings += senders.map { .text($0) }
        }
        guard !clauses.isEmpty else { return nil }
        return (clauses.joined(separator: " AND "), bindings)
    }
}
