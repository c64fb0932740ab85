import DiagModel

/// A `{"subscribe": {...}}` request: which live records a `diag stream` wants.
public struct StreamRequest: Sendable, Hashable {
    /// The lowest level sent: `default` (Default, Error, Fault), `info` (and Info) or `debug` (all).
    public var level: MessageType
    /// Process names or IDs; empty means every process.
    public var processes: [String]
    /// A predicate in the NSPredicate language (PREDICATES.md), evaluated by the daemon.
    public var predicate: String?

    public init(level: MessageType = .default, processes: [String] = [], predicate: String? = nil) {
        self.level = level
        self.processes = processes
        self.predicate = predicate
    }

    public init(json: JSONValue) throws(ProtocolError) {
        guard case .object(let members) = json else {
            throw ProtocolError("'subscribe' takes an object like {\"level\": \"debug\", \"processes\": [\"syncd\"]}, found \(json.kindName)")
        }
        self.init()
        for (key, value) in members where !value.isNull {
            switch (key, value) {
            case ("level", .string(let name)):
                level = try LevelMode.level(name, in: "subscribe.level")
            case ("processes", .array(let list)):
                processes = try list.map { (item: JSONValue) throws(ProtocolError) -> String in
                    switch item {
                    case .string(let name): return name
                    case .int(let pid): return String(pid)
                    default: throw ProtocolError("'subscribe.processes' holds names or IDs, found \(item.kindName)")
                    }
                }
            case ("predicate", .string(let text)):
                predicate = text
            case ("level", _), ("processes", _), ("predicate", _):
                throw ProtocolError("'subscribe.\(key)' has the wrong type: \(value.kindName)")
            default:
                throw ProtocolError("unknown key '\(key)' in 'subscribe'; accepted: level, processes, predicate")
            }
        }
    }

    /// Whether a record passes the level and process filters.
    public func admits(_ record: LogRecord) -> Bool {
        guard record.messageType.severity >= level.severity else { return false }
        guard !processes.isEmpty else { return true }
        return processes.contains { wanted in
            if let pid = Int64(wanted) { return record.processID == pid }
            return record.process == wanted
        }
    }

    public var json: JSONValue {
        var members: [String: JSONValue] = ["level": .string(level.name.lowercased())]
        if !processes.isEmpty { members["processes"] = .array(processes.map { .string($0) }) }
        if let predicate { members["predicate"] = .string(predicate) }
        return .object(members)
    }
}
