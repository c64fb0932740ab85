import DiagForward
import DiagModel
import Foundation

/// What an OTLP/HTTP exchange means for the records sent, by the OTLP specification's rules:
/// 2xx accepted (maybe partly, `partialSuccess`), 429/502/503/504 and lost connections retried
/// (honouring `Retry-After`), every other status refused and never retried.
enum OTLPHTTPOutcome: Equatable {
    case accepted(partial: OTLPPartialSuccess?, unreadableBody: Bool)
    case retry(reason: String, after: Double?)
    case refused(reason: String)

    static let retryableStatuses: Set<Int> = [429, 502, 503, 504]

    /// - Parameter maxRetryAfter: the longest wait a receiver may ask for; longer ones are cut to it.
    init(_ exchange: OTLPHTTPExchange, endpoint: String, maxRetryAfter: Double, now: Date = Date()) {
        guard let status = exchange.status else {
            self = .retry(reason: "\(endpoint): no response (\(exchange.failure ?? "connection lost"))", after: nil)
            return
        }
        switch status {
        case 200..<300:
            let parsed = OTLPPartialSuccess.parse(exchange.body)
            self = .accepted(partial: parsed.partial, unreadableBody: !parsed.readable)
        case _ where Self.retryableStatuses.contains(status):
            let after = exchange.retryAfter.flatMap { Self.retryDelay($0, now: now) }.map { min($0, maxRetryAfter) }
            self = .retry(reason: "\(endpoint): HTTP \(status)\(Self.statusMessage(exchange.body))", after: after)
        default:
            self = .refused(reason: "\(endpoint): HTTP \(status)\(Self.statusMessage(exchange.body))")
        }
    }

    /// `Retry-After` as seconds from now: delay-seconds (`120`) or an HTTP-date
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`, and RFC 9110's two obsolete forms); nil if neither.
    static func retryDelay(_ value: String, now: Date) -> Double? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // Digits beyond Double's range still mean "a very long time": the caller caps it.
            return Double(text) ?? .greatestFiniteMagnitude
        }
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return max(0, date.timeIntervalSince(now)) }
        }
        return nil
    }

    /// `: <message>` from a failure's body: `google.rpc.Status`'s `message` when the body is
    /// JSON, else its printable start; at most 200 characters, control characters replaced.
    static func statusMessage(_ body: Data) -> String {
        guard !body.isEmpty else { return "" }
        var text: String
        if let object = try? JSONReader.parseObject([UInt8](body)), let message = object["message"]?.stringValue {
            text = message
        } else {
            text = String(decoding: body.prefix(400), as: UTF8.self)
        }
        text = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
            .trimmingCharacters(in: .whitespaces)
        if text.count > 200 { text = String(text.prefix(200)) + "…" }
        return text.isEmpty ? "" : ": \(text)"
    }
}

/// `ExportLogsServiceResponse.partialSuccess`: records the receiver accepted the request but
/// refused, or a warning it sent with a full success.
public struct OTLPPartialSuccess: Sendable, Hashable {
    public var rejectedLogRecords: Int64
    public var errorMessage: String

    /// The partial success in a success response's body, if any; `readable` is false when a
    /// non-empty body is not JSON of that shape (the records were accepted all the same).
    static func parse(_ body: Data) -> (partial: OTLPPartialSuccess?, readable: Bool) {
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return (nil, true) }
        guard let object = try? JSONReader.parseObject([UInt8](body)) else { return (nil, false) }
        guard let partialValue = object["partialSuccess"] else { return (nil, true) }
        guard let partial = partialValue.objectValue else { return (nil, partialValue.isNull) }
        // int64 comes as a decimal string in OTLP/JSON; a number is accepted too.
        let rejected: Int64?
        switch partial["rejectedLogRecords"] {
        case nil, .null: rejected = 0
        case .string(let text): rejected = Int64(text)
        case let value?: rejected = value.int64Value
        }
        let message = partial["errorMessage"]?.stringValue ?? ""
        guard let rejected, rejected >= 0 else { return (nil, false) }
        if rejected == 0 && message.isEmpty { return (nil, true) }
        return (OTLPPartialSuccess(rejectedLogRecords: rejected, errorMessage: message), true)
    }
}
