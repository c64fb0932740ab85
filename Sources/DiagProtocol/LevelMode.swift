import DiagModel

/// What a subsystem (or one of its categories) keeps, like `log config --mode`:
/// records below `enabled` are dropped, records below `persisted` live only in the memory ring.
/// A nil level is inherited from the subsystem, then from the daemon's default.
public struct LevelMode: Sendable, Hashable {
    public var enabled: MessageType?
    public var persisted: MessageType?

    public init(enabled: MessageType? = nil, persisted: MessageType? = nil) {
        self.enabled = enabled
        self.persisted = persisted
    }

    /// Debug records reach the ring and `diag stream`; Info and above are stored.
    public static let systemDefault = LevelMode(enabled: .debug, persisted: .info)

    static let acceptedLevels = "debug, info or default"

    /// Reads `level:debug,persist:info` (either part may be left out).
    public static func parse(_ text: String) throws(ProtocolError) -> LevelMode {
        var mode = LevelMode()
        guard !text.isEmpty else {
            throw ProtocolError("empty mode; write level:debug|info|default and/or persist:debug|info|default, e.g. level:debug,persist:info")
        }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        for part in parts {
            let pair = part.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else {
                throw ProtocolError("mode part '\(part)' is not KEY:LEVEL; write level:debug|info|default and/or persist:debug|info|default, e.g. level:debug,persist:info")
            }
            let level = try Self.level(String(pair[1]), in: String(part))
            switch pair[0].lowercased() {
            case "level": mode.enabled = level
            case "persist": mode.persisted = level
            default: throw ProtocolError("unknown mode key '\(pair[0])' in '\(part)'; accepted keys: level, persist")
            }
        }
        return mode
    }

    static func level(_ name: String, in context: String) throws(ProtocolError) -> MessageType {
        switch name.lowercased() {
        case "debug": return .debug
        case "info": return .info
        case "default": return .default
        default: throw ProtocolError("unknown level '\(name)' in '\(context)'; accepted: \(acceptedLevels)")
        }
    }

    /// `level:debug,persist:info`, leaving out what is inherited.
    public var description: String {
        var parts: [String] = []
        if let enabled { parts.append("level:\(enabled.name.lowercased())") }
        if let persisted { parts.append("persist:\(persisted.name.lowercased())") }
        return parts.joined(separator: ",")
    }
}

/// A `{"config": {...}}` request: a mode for a subsystem, a category of it, or (neither) everything.
public struct LevelSetting: Sendable, Hashable {
    public var subsystem: String?
    public var category: String?
    public var mode: LevelMode

    public init(subsystem: String?, category: String?, mode: LevelMode) {
        self.subsystem = subsystem
        self.category = category
        self.mode = mode
    }

    public init(json: JSONValue) throws(ProtocolError) {
        let object = try ConfigObject(
            json, accepted: ["subsystem", "category", "mode"],
            example: "{\"subsystem\": \"com.example.sync\", \"mode\": \"level:debug,persist:info\"}", form: "'config'")
        self.init(subsystem: object.subsystem, category: object.category, mode: try LevelMode.parse(try object.text("mode") ?? ""))
    }

    public var json: JSONValue {
        var members = ConfigObject.scope(subsystem: subsystem, category: category)
        members["mode"] = .string(mode.description)
        return .object(members)
    }
}
