import DiagModel

/// One line diagd sends back (docs/PROTOCOL.md): a record of the ring or of a stream, or a reply
/// to a request. The server writes it with `json`; clients read it with `parse`, which checks
/// every member's type, so a reply that is not one of these is an error that says what it was.
public enum DaemonReply: Sendable, Equatable {
    /// A record of `{"ring": true}`'s answer or of a stream.
    case record(LogRecord)
    /// `{"synced": ID}`: every record before the `{"sync": ID}` is committed.
    case synced(JSONValue)
    /// `{"error": reason, "line": N}`: the request or record on line N was refused (no line: the
    /// connection was); `sync` names the sync request that could not be honoured.
    case error(String, line: Int? = nil, sync: JSONValue? = nil)
    /// `{"end": N}`: the ring's N records are sent.
    case end(Int)
    /// `{"subscribed": {…}}`: the stream request as diagd took it; records follow.
    case subscribed(StreamRequest)
    /// `{"dropped": N}`: N stream records were skipped because the reader was too slow.
    case dropped(Int)
    /// `{"configured": [{…}, …]}`: the level settings in force after a config request.
    case configured([LevelSetting])
    /// `{"stats": {…}}`: the daemon's counters, by name.
    case stats([String: JSONValue])

    /// The reply keys; a line with `eventMessage` is a record instead.
    static let keys = ["synced", "error", "end", "subscribed", "dropped", "configured", "stats"]

    /// The line diagd writes, newline included.
    public var line: [UInt8] {
        var writer = JSONWriter(reservingCapacity: 64)
        write(to: &writer)
        return writer.bytes
    }

    /// Appends the line, newline included: the one spelling of every reply, which diagd uses
    /// alone or to gather many records (a ring dump, a stream) into one write.
    public func write(to writer: inout JSONWriter) {
        switch self {
        case .record(let record): record.writeJSON(to: &writer)
        default: writer.append(.object(members))
        }
        writer.bytes.append(UInt8(ascii: "\n"))
    }

    /// A reply's members; a record is written by its own encoder.
    private var members: [String: JSONValue] {
        switch self {
        case .record: return [:]
        case .synced(let id): return ["synced": id]
        case .error(let reason, let line, let sync):
            var members: [String: JSONValue] = ["error": .string(reason)]
            if let line { members["line"] = .int(Int64(line)) }
            if let sync { members["sync"] = sync }
            return members
        case .end(let count): return ["end": .int(Int64(count))]
        case .subscribed(let request): return ["subscribed": request.json]
        case .dropped(let count): return ["dropped": .int(Int64(count))]
        case .configured(let settings): return ["configured": .array(settings.map(\.json))]
        case .stats(let counters): return ["stats": .object(counters)]
        }
    }

    /// Reads one line diagd sent (without its newline).
    public static func parse(_ line: [UInt8]) throws(ProtocolError) -> DaemonReply {
        guard line.count <= LineBounds.reply else {
            throw ProtocolError("a reply line of \(line.count) bytes; at most \(LineBounds.reply) are read")
        }
        let members: [String: JSONValue]
        do {
            members = try JSONReader.parseObject(line)
        } catch {
            throw ProtocolError("a reply that is not a JSON object: \(error)")
        }
        if members["eventMessage"] != nil {
            do {
                return .record(try LogRecord(json: members))
            } catch {
                throw ProtocolError("a record that does not read: \(error)")
            }
        }
        guard let key = keys.first(where: { members[$0] != nil }) else {
            let found = members.keys.sorted().joined(separator: ", ")
            throw ProtocolError("a reply with none of the keys \(keys.joined(separator: ", ")) and no eventMessage (found: \(found.isEmpty ? "nothing" : found))")
        }
        return try reply(key, members)
    }

    private static func reply(_ key: String, _ members: [String: JSONValue]) throws(ProtocolError) -> DaemonReply {
        let value = members[key]!
        switch key {
        case "synced":
            return .synced(value)
        case "error":
            guard case .string(let reason) = value else { throw wrongType(key, value, "a string") }
            var line: Int?
            if let number = members["line"], !number.isNull {
                guard let count = number.int64Value, count >= 0, count <= Int64(Int.max) else { throw wrongType("line", number, "a line number") }
                line = Int(count)
            }
            return .error(reason, line: line, sync: members["sync"])
        case "end", "dropped":
            guard let count = value.int64Value, count >= 0, count <= Int64(Int.max) else { throw wrongType(key, value, "a count") }
            return key == "end" ? .end(Int(count)) : .dropped(Int(count))
        case "subscribed":
            return .subscribed(try StreamRequest(json: value))
        case "configured":
            guard case .array(let list) = value else { throw wrongType(key, value, "an array of settings") }
            var settings: [LevelSetting] = []
            for item in list { settings.append(try LevelSetting(json: item)) }
            return .configured(settings)
        default:
            guard case .object(let counters) = value else { throw wrongType(key, value, "an object of counters") }
            return .stats(counters)
        }
    }

    private static func wrongType(_ key: String, _ value: JSONValue, _ expected: String) -> ProtocolError {
        ProtocolError("'\(key)' must be \(expected), found \(value.kindName)")
    }
}
