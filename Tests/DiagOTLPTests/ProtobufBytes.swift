/// Builds protobuf wire bytes by hand, so tests can send both valid OTLP and what no SDK would.
struct ProtobufBytes {
    var bytes: [UInt8] = []

    static func varint(_ value: UInt64) -> [UInt8] {
        var rest = value
        var out: [UInt8] = []
        while rest >= 0x80 {
            out.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        out.append(UInt8(rest))
        return out
    }

    mutating func message(_ field: UInt64, _ content: ProtobufBytes) {
        bytes += Self.varint(field << 3 | 2) + Self.varint(UInt64(content.bytes.count)) + content.bytes
    }

    mutating func string(_ field: UInt64, _ text: String) {
        bytes += Self.varint(field << 3 | 2) + Self.varint(UInt64(text.utf8.count)) + Array(text.utf8)
    }

    mutating func varintField(_ field: UInt64, _ value: UInt64) {
        bytes += Self.varint(field << 3) + Self.varint(value)
    }

    mutating func fixed64(_ field: UInt64, _ value: UInt64) {
        bytes += Self.varint(field << 3 | 1) + (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// An ExportLogsServiceRequest of one resource (service.name), one scope, these records.
    static func request(service: String, records: [ProtobufBytes]) -> [UInt8] {
        var name = ProtobufBytes()
        name.string(1, service)
        var keyValue = ProtobufBytes()
        keyValue.string(1, "service.name")
        keyValue.message(2, name)
        var resource = ProtobufBytes()
        resource.message(1, keyValue)
        var scope = ProtobufBytes()
        for record in records { scope.message(2, record) }
        var resourceLogs = ProtobufBytes()
        resourceLogs.message(1, resource)
        resourceLogs.message(2, scope)
        var request = ProtobufBytes()
        request.message(1, resourceLogs)
        return request.bytes
    }

    /// A LogRecord with a time, a severity number and a string body.
    static func record(_ message: String, severity: UInt64 = 9, time: UInt64 = 1_795_945_200_000_000_000) -> ProtobufBytes {
        var body = ProtobufBytes()
        body.string(1, message)
        var record = ProtobufBytes()
        record.fixed64(1, time)
        record.varintField(2, severity)
        record.message(5, body)
        return record
    }
}
