import DiagModel

/// One line a client sent, read: a record to store, or a request to the daemon (docs/PROTOCOL.md).
public enum ClientMessage: Sendable {
    case record(LogRecord)
    /// `{"sync": ID}`: answer `{"synced": ID}` once every earlier record of the connection is committed.
    case sync(JSONValue)
    /// `{"ring": true}`: the in-memory ring of records that were not persisted, then `{"end": N}`.
    case ring
    /// `{"subscribe": {...}}`: turn the connection into a live tail.
    case subscribe(StreamRequest)
    /// `{"config": {...}}`: change and persist the level setting of a subsystem or category;
    /// `{"config": {}}` (no mode) only asks for the settings in force.
    case configure(LevelSetting?)
    /// `{"config": {"reset": true, ...}}`: remove a setting, or every one (`diag config --reset`).
    case resetLevels(LevelReset)
    /// `{"stats": true}`: the daemon's counters.
    case stats

    /// The request keys; a line with one of them and no `eventMessage` is a request.
    public static let requestKeys: Set<String> = ["sync", "ring", "subscribe", "config", "stats"]

    /// Reads one line. `receiptTime` stands in for a missing `timestamp`.
    public static func parse(_ line: UnsafeRawBufferPointer, receiptTime: Int64) throws(ProtocolError) -> ClientMessage? {
        if isBlank(line) { return nil }
        let bytes = line.assumingMemoryBound(to: UInt8.self)
        do {
            var record = try LogRecord(jsonBytes: bytes, defaultTimestamp: receiptTime)
            record.receiptTime = receiptTime
            return .record(record)
        } catch .invalidRecord(let error) where error.field == "eventMessage" && error.refusedValue == nil {
            // Not a record: perhaps a request, which has no eventMessage.
        } catch {
            throw ProtocolError(error.description)
        }
        let members: [String: JSONValue]
        do {
            members = try JSONReader.parseObject(bytes)
        } catch {
            throw ProtocolError(error.description)
        }
        guard let key = members.keys.first(where: requestKeys.contains) else {
            throw ProtocolError("a record needs \"eventMessage\" (a string); requests are {\"sync\": ID}, {\"ring\": true}, {\"subscribe\": {…}}, {\"config\": {…}} and {\"stats\": true}")
        }
        guard members.count == 1 else {
            let extra = members.keys.filter { $0 != key }.sorted().joined(separator: ", ")
            throw ProtocolError("a \"\(key)\" request takes no other key, found: \(extra)")
        }
        return try request(key, members[key]!)
    }

    private static func request(_ key: String, _ value: JSONValue) throws(ProtocolError) -> ClientMessage {
        switch key {
        case "sync":
            switch value {
            case .int, .string: return .sync(value)
            default: throw ProtocolError("'sync' takes an integer or a string ID to echo, found \(value.kindName)")
            }
        case "ring": return .ring
        case "stats": return .stats
        case "subscribe": return .subscribe(try StreamRequest(json: value))
        default:
            if case .object(let members) = value, let reset = members["reset"], !reset.isNull {
                return .resetLevels(try LevelReset(json: value))
            }
            if case .object(let members) = value, members["mode"]?.isNull ?? true {
                guard members.values.allSatisfy(\.isNull) else {
                    throw ProtocolError("'config' needs 'mode' (e.g. \"level:debug,persist:info\") to change a setting; {\"config\": {}} lists them")
                }
                return .configure(nil)
            }
            return .configure(try LevelSetting(json: value))
        }
    }

    private static func isBlank(_ line: UnsafeRawBufferPointer) -> Bool {
        // A record starts with `{`: only lines that start with a blank need the full look.
        guard let first = line.first, first != UInt8(ascii: "{") else { return line.isEmpty }
        return line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }
}
