import DiagModel

/// The byte buffer behind `NDJSONWriter`: writes a record exactly as `LogRecord.writeJSON` does
/// (a test holds the two to the same bytes), through the shared `ByteWriter`, which copies plain
/// runs of text at once and skips them eight bytes at a time: ten million records are a matter
/// of seconds. A struct, not a class: stored properties of a class pay a dynamic exclusivity
/// check on every access.
struct NDJSONEncodingBuffer: ~Copyable {
    private var writer: ByteWriter
    private var metadata = JSONWriter(reservingCapacity: 256)

    init(capacity: Int) {
        writer = ByteWriter(capacity: capacity)
    }

    var base: UnsafeMutablePointer<UInt8> { writer.base }
    var count: Int { writer.count }

    mutating func removeAll() { writer.count = 0 }

    /// The record as one line of NDJSON, newline included.
    mutating func append(_ record: LogRecord) {
        writer.append("{\"timestamp\":\"")
        writer.appendTimestamp(nanoseconds: record.timestamp, offsetSeconds: 0, fractionDigits: 6,
                               separator: UInt8(ascii: " "), zoneColon: false)
        writer.append("\",\"timestampNanoseconds\":")
        writer.appendDigits(record.timestamp)
        writer.append(",\"messageType\":\"")
        writer.append(record.messageType.staticName)
        writer.append("\",\"eventType\":\"")
        writer.append(record.eventType.staticName)
        writer.append("\"")
        field(",\"process\":", record.process)
        field(",\"processID\":", record.processID)
        field(",\"processImagePath\":", record.processImagePath)
        field(",\"userID\":", record.userID)
        field(",\"sender\":", record.sender)
        field(",\"senderImagePath\":", record.senderImagePath)
        field(",\"subsystem\":", record.subsystem)
        field(",\"category\":", record.category)
        field(",\"threadID\":", record.threadID)
        field(",\"activityIdentifier\":", record.activityIdentifier)
        field(",\"parentActivityIdentifier\":", record.parentActivityIdentifier)
        field(",\"traceID\":", record.traceID)
        writer.append(",\"eventMessage\":")
        string(record.eventMessage)
        field(",\"formatString\":", record.formatString)
        field(",\"signpostID\":", record.signpostID)
        field(",\"signpostName\":", record.signpostName)
        field(",\"signpostType\":", record.signpostType)
        field(",\"signpostScope\":", record.signpostScope)
        if let values = record.metadata {
            writer.append(",\"metadata\":")
            metadata.bytes.removeAll(keepingCapacity: true)
            metadata.append(.object(values))
            writer.append(metadata.bytes)
        }
        field(",\"receiptTime\":", record.receiptTime)
        writer.append("}\n")
    }

    private mutating func field(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        writer.append(name)
        string(value)
    }

    private mutating func field(_ name: StaticString, _ value: Int64?) {
        guard let value else { return }
        writer.append(name)
        writer.appendDigits(value)
    }

    /// A JSON string, escaped as `JSONWriter` escapes it.
    private mutating func string(_ text: String) {
        var text = text
        _ = text.withUTF8 { writer.appendJSONString($0) }
    }
}
