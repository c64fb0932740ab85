/// The record fields a JSON object may carry, by their JSON names.
enum LogRecordField: CaseIterable {
    case timestamp, timestampNanoseconds, messageType, eventType, eventMessage, messageAlias
    case process, processID, processImagePath, userID, sender, senderImagePath, subsystem, category
    case threadID, activityIdentifier, parentActivityIdentifier, traceID, formatString
    case signpostID, signpostName, signpostType, receiptTime, metadata

    static let byName: [String: LogRecordField] = {
        var table: [String: LogRecordField] = ["message": .messageAlias, "composedMessage": .messageAlias]
        for field in allCases where field != .messageAlias { table["\(field)"] = field }
        return table
    }()

    /// The names as UTF-8 bytes grouped by length, so the byte decoder matches a key with a
    /// compare or two and makes no String for it.
    private static let byLength: [[([UInt8], LogRecordField)]] = byName.reduce(into: Array(repeating: [], count: 25)) {
        table, entry in table[entry.key.utf8.count].append((Array(entry.key.utf8), entry.value))
    }

    static func named(_ bytes: UnsafeBufferPointer<UInt8>) -> LogRecordField? {
        guard bytes.count < byLength.count else { return nil }
        for (name, field) in byLength[bytes.count] where name.elementsEqual(bytes) {
            return field
        }
        return nil
    }
}

/// Collects the fields of one record as they come, in any order; `finish` checks what is required.
struct LogRecordDecoder {
    private var record = LogRecord(timestamp: 0, eventMessage: "")
    private var timestamp: Int64?
    private var exactTimestamp: Int64?
    private var message: String?
    private var messageAlias: String?

    /// Takes one field's value; `null` is the same as missing.
    mutating func take(_ field: LogRecordField, _ value: JSONValue) throws(LogRecordDecodingError) {
        if case .null = value { return }
        switch field {
        case .timestamp: timestamp = try Self.timestamp(value)
        case .timestampNanoseconds: exactTimestamp = try Self.integer(value, "timestampNanoseconds")
        case .messageType: record.messageType = try Self.messageType(value)
        case .eventType: record.eventType = try Self.eventType(value)
        case .eventMessage: message = try Self.string(value, "eventMessage")
        case .messageAlias: messageAlias = try Self.string(value, "message")
        case .process: record.process = try Self.string(value, "process")
        case .processID: record.processID = try Self.integer(value, "processID")
        case .processImagePath: record.processImagePath = try Self.string(value, "processImagePath")
        case .userID: record.userID = try Self.integer(value, "userID")
        case .sender: record.sender = try Self.string(value, "sender")
        case .senderImagePath: record.senderImagePath = try Self.string(value, "senderImagePath")
        case .subsystem: record.subsystem = try Self.string(value, "subsystem")
        case .category: record.category = try Self.string(value, "category")
        case .threadID: record.threadID = try Self.integer(value, "threadID")
        case .activityIdentifier: record.activityIdentifier = try Self.integer(value, "activityIdentifier")
        case .parentActivityIdentifier: record.parentActivityIdentifier = try Self.integer(value, "parentActivityIdentifier")
        case .traceID: record.traceID = try Self.integer(value, "traceID")
        case .formatString: record.formatString = try Self.string(value, "formatString")
        case .signpostID: record.signpostID = try Self.integer(value, "signpostID")
        case .signpostName: record.signpostName = try Self.string(value, "signpostName")
        case .signpostType: record.signpostType = try Self.string(value, "signpostType")
        case .receiptTime: record.receiptTime = try Self.integer(value, "receiptTime")
        case .metadata:
            guard case .object(let members) = value else {
                throw LogRecordDecodingError(field: "metadata", refused: value, accepted: "a JSON object")
            }
            record.metadata = members
        }
    }

    func finish(defaultTimestamp: Int64?) throws(LogRecordDecodingError) -> LogRecord {
        guard let resolvedTimestamp = exactTimestamp ?? timestamp ?? defaultTimestamp else {
            throw LogRecordDecodingError(field: "timestamp", refused: nil, accepted: Self.acceptedTimestamps)
        }
        guard let resolvedMessage = message ?? messageAlias else {
            throw LogRecordDecodingError(
                field: "eventMessage", refused: nil, accepted: "a string (also named message or composedMessage)")
        }
        var result = record
        result.timestamp = resolvedTimestamp
        result.eventMessage = resolvedMessage
        return result
    }

    static let acceptedTimestamps =
        "integer nanoseconds since the Unix epoch, or a date such as 2026-07-26T18:11:22.348728Z or 2026-07-26 18:11:22.348728+1200"

    private static func timestamp(_ value: JSONValue) throws(LogRecordDecodingError) -> Int64 {
        switch value {
        case .int(let nanoseconds): return nanoseconds
        case .string(let text):
            if let nanoseconds = Timestamp.parse(text) { return nanoseconds }
        case .double(let number) where number.rounded() == number && abs(number) < 9.2e18: return Int64(number)
        default: break
        }
        throw LogRecordDecodingError(field: "timestamp", refused: value, accepted: acceptedTimestamps)
    }

    private static func messageType(_ value: JSONValue) throws(LogRecordDecodingError) -> MessageType {
        switch value {
        case .string(let name): if let type = MessageType(name: name) { return type }
        case .int(let code): if let type = MessageType(rawValue: Int(truncatingIfNeeded: code)), Int64(type.rawValue) == code { return type }
        default: break
        }
        throw LogRecordDecodingError(
            field: "messageType", refused: value,
            accepted: "Default, Info, Debug, Error or Fault in any case, or the codes 0, 1, 2, 16, 17")
    }

    private static func eventType(_ value: JSONValue) throws(LogRecordDecodingError) -> EventType {
        switch value {
        case .string(let name): if let type = EventType(name: name) { return type }
        case .int(let code): if let type = EventType(rawValue: Int(truncatingIfNeeded: code)), Int64(type.rawValue) == code { return type }
        default: break
        }
        let names = EventType.allCases.map(\.name).joined(separator: ", ")
        let codes = EventType.allCases.map { String($0.rawValue) }.joined(separator: ", ")
        throw LogRecordDecodingError(field: "eventType", refused: value, accepted: "\(names) in any case, or the codes \(codes)")
    }

    private static func string(_ value: JSONValue, _ field: String) throws(LogRecordDecodingError) -> String {
        guard case .string(let text) = value else {
            throw LogRecordDecodingError(field: field, refused: value, accepted: "a string")
        }
        return text
    }

    private static func integer(_ value: JSONValue, _ field: String) throws(LogRecordDecodingError) -> Int64 {
        guard let number = value.int64Value else {
            throw LogRecordDecodingError(field: field, refused: value, accepted: "an integer from -2^63 to 2^63-1")
        }
        return number
    }
}
