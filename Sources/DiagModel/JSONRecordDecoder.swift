#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The record fields a JSON object may carry, by their JSON names.
enum LogRecordField: CaseIterable {
    case timestamp, timestampNanoseconds, messageType, eventType, eventMessage, message, composedMessage
    case process, processID, processImagePath, userID, sender, senderImagePath, subsystem, category
    case threadID, activityIdentifier, parentActivityIdentifier, traceID, formatString
    case signpostID, signpostName, signpostType, signpostScope, receiptTime, metadata

    static let byName: [String: LogRecordField] = {
        var table: [String: LogRecordField] = [:]
        for field in allCases { table["\(field)"] = field }
        return table
    }()

    /// The field a key names, matched on its bytes by length then content: no String, no hashing.
    static func named(_ key: UnsafeBufferPointer<UInt8>) -> LogRecordField? {
        switch key.count {
        case 6:
            if key.equals("userID") { return .userID }
            if key.equals("sender") { return .sender }
        case 7:
            if key.equals("process") { return .process }
            if key.equals("traceID") { return .traceID }
            if key.equals("message") { return .message }
        case 8:
            if key.equals("category") { return .category }
            if key.equals("threadID") { return .threadID }
            if key.equals("metadata") { return .metadata }
        case 9:
            if key.equals("timestamp") { return .timestamp }
            if key.equals("eventType") { return .eventType }
            if key.equals("processID") { return .processID }
            if key.equals("subsystem") { return .subsystem }
        case 10:
            if key.equals("signpostID") { return .signpostID }
        case 11:
            if key.equals("messageType") { return .messageType }
            if key.equals("receiptTime") { return .receiptTime }
        case 12:
            if key.equals("eventMessage") { return .eventMessage }
            if key.equals("formatString") { return .formatString }
            if key.equals("signpostName") { return .signpostName }
            if key.equals("signpostType") { return .signpostType }
        case 13:
            if key.equals("signpostScope") { return .signpostScope }
        case 15:
            if key.equals("senderImagePath") { return .senderImagePath }
            if key.equals("composedMessage") { return .composedMessage }
        case 16:
            if key.equals("processImagePath") { return .processImagePath }
        case 18:
            if key.equals("activityIdentifier") { return .activityIdentifier }
        case 20:
            if key.equals("timestampNanoseconds") { return .timestampNanoseconds }
        case 24:
            if key.equals("parentActivityIdentifier") { return .parentActivityIdentifier }
        default: break
        }
        return nil
    }
}

extension UnsafeBufferPointer<UInt8> {
    @inline(__always) fileprivate func equals(_ name: StaticString) -> Bool {
        count == name.utf8CodeUnitCount && memcmp(baseAddress!, name.utf8Start, count) == 0
    }
}

/// Collects the fields of one record as they come, in any order; `finish` checks what is required.
struct LogRecordDecoder {
    private var record = LogRecord(timestamp: 0, eventMessage: "")
    /// Read only in `finish`, and only when `timestampNanoseconds` is absent: parsing the
    /// formatted time of every record of our own NDJSON would be wasted work.
    private var timestamp: JSONValue?
    private var exactTimestamp: Int64?
    private var eventMessage: String?
    private var message: String?
    private var composedMessage: String?

    /// Takes one field's value; `null` is the same as missing.
    mutating func take(_ field: LogRecordField, _ value: JSONValue) throws(LogRecordDecodingError) {
        if case .null = value { return }
        switch field {
        case .timestamp: timestamp = value
        case .timestampNanoseconds: exactTimestamp = try Self.integer(value, "timestampNanoseconds")
        case .messageType: record.messageType = try Self.messageType(value)
        case .eventType: record.eventType = try Self.eventType(value)
        case .eventMessage: eventMessage = try Self.string(value, "eventMessage")
        case .message: message = try Self.string(value, "message")
        case .composedMessage: composedMessage = try Self.string(value, "composedMessage")
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
        case .signpostScope: record.signpostScope = try Self.string(value, "signpostScope")
        case .receiptTime: record.receiptTime = try Self.integer(value, "receiptTime")
        case .metadata:
            guard case .object(let members) = value else {
                throw LogRecordDecodingError(field: "metadata", refused: value, accepted: "a JSON object")
            }
            record.metadata = members
        }
    }

    consuming func finish(defaultTimestamp: Int64?) throws(LogRecordDecodingError) -> LogRecord {
        var formattedTimestamp: Int64?
        if exactTimestamp == nil, let timestamp { formattedTimestamp = try Self.timestamp(timestamp) }
        guard let resolvedTimestamp = exactTimestamp ?? formattedTimestamp ?? defaultTimestamp else {
            throw LogRecordDecodingError(field: "timestamp", refused: nil, accepted: Self.acceptedTimestamps)
        }
        // A fixed order, so that a record naming its message twice reads the same every time.
        guard let resolvedMessage = eventMessage ?? message ?? composedMessage else {
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
        case .string(let name):
            // The capitalised names come first: they are what every writer of records sends.
            for type in MessageType.allCases where type.name == name { return type }
            if let type = MessageType(name: name) { return type }
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
