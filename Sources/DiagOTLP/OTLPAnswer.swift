import DiagModel

/// An HTTP answer to an OTLP request, its body in the request's encoding as OTLP/HTTP says:
/// `ExportLogsServiceResponse` on success (with `partialSuccess` when records were refused),
/// `google.rpc.Status` with the reason on failure; plain text when the encoding is unknown.
struct OTLPAnswer {
    enum Encoding { case protobuf, json, text }

    var status: UInt32
    var body: [UInt8]
    var contentType: String
    var retryAfterSeconds: Int?
    var allow: String?

    /// HTTP 200; `rejected` records refused with `message`.
    static func success(rejected: Int, message: String, encoding: Encoding) -> OTLPAnswer {
        switch encoding {
        case .protobuf:
            var partial: [UInt8] = []
            if rejected > 0 {
                partial.append(0x08)
                appendVarint(UInt64(rejected), to: &partial)
            }
            if !message.isEmpty { appendField(2, Array(message.utf8), to: &partial) }
            var body: [UInt8] = []
            if !partial.isEmpty { appendField(1, partial, to: &body) }
            return OTLPAnswer(status: 200, body: body, contentType: "application/x-protobuf")
        case .json, .text:
            var writer = JSONWriter()
            if rejected == 0 && message.isEmpty {
                writer.append(raw: "{}")
            } else {
                writer.append(raw: "{\"partialSuccess\":{\"rejectedLogRecords\":\"")
                writer.append(Int64(rejected))
                writer.append(raw: "\",\"errorMessage\":")
                writer.append(string: message)
                writer.append(raw: "}}")
            }
            return OTLPAnswer(status: 200, body: writer.bytes, contentType: "application/json")
        }
    }

    /// A refusal with its reason; 429 and 503 carry `Retry-After`.
    static func failure(_ status: UInt32, _ message: String, encoding: Encoding, retryAfter: Int? = nil) -> OTLPAnswer {
        // google.rpc.Status codes: INVALID_ARGUMENT 3, NOT_FOUND 5, RESOURCE_EXHAUSTED 8, UNIMPLEMENTED 12, UNAVAILABLE 14.
        let code: Int64 = switch status {
        case 400, 415: 3
        case 404: 5
        case 405: 12
        case 413, 429: 8
        default: 14
        }
        switch encoding {
        case .protobuf:
            var body: [UInt8] = [0x08]
            appendVarint(UInt64(code), to: &body)
            appendField(2, Array(message.utf8), to: &body)
            return OTLPAnswer(status: status, body: body, contentType: "application/x-protobuf", retryAfterSeconds: retryAfter)
        case .json:
            var writer = JSONWriter()
            writer.append(raw: "{\"code\":")
            writer.append(code)
            writer.append(raw: ",\"message\":")
            writer.append(string: message)
            writer.append(raw: "}")
            return OTLPAnswer(status: status, body: writer.bytes, contentType: "application/json", retryAfterSeconds: retryAfter)
        case .text:
            return OTLPAnswer(status: status, body: Array((message + "\n").utf8), contentType: "text/plain; charset=utf-8", retryAfterSeconds: retryAfter)
        }
    }

    private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    private static func appendField(_ number: UInt8, _ content: [UInt8], to bytes: inout [UInt8]) {
        bytes.append(number << 3 | 2)
        appendVarint(UInt64(content.count), to: &bytes)
        bytes.append(contentsOf: content)
    }
}
