import DiagModel
import Glibc

/// Log records as RFC 5424 syslog messages, and their octet-counted framing for TCP
/// (RFC 6587 §3.4.1: `MSG-LEN SP SYSLOG-MSG`), as rsyslog's `imtcp` and syslog-ng read them.
///
/// `<PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID [diag@32473 subsystem="…" …] BOM MSG`:
/// PRI from the facility and the level, the timestamp with microseconds and the UTC offset,
/// APP-NAME the process, PROCID its pid, MSGID the category. Header fields hold printable ASCII
/// only, within RFC 5424 §6's lengths: another character becomes `_` and a longer value is cut;
/// the exact value then travels in the structured data too (`process`, `category`). Structured
/// data carries the other fields, values escaped (`"`, `\`, `]`). MSG is the message's UTF-8:
/// behind a BOM when it holds a character outside ASCII (§6.4: a UTF-8 MSG starts with one), bare
/// when it is all ASCII (§6.4's MSG-ANY, the same bytes), because rsyslog keeps the BOM in the
/// `msg` it writes (docs/FORWARDING.md).
public struct RFC5424Encoder: Sendable, Hashable {
    /// The SD-ID of the structured data element: `diag` at the documentation enterprise number of
    /// RFC 5612.
    public static let structuredDataID = "diag@32473"
    /// Facilities RFC 5424 defines (0 kernel … 23 local7).
    public static let facilities = 0...23

    public let facility: Int
    /// The HOSTNAME field, already reduced to printable ASCII (at most 255 bytes).
    public let hostname: String
    /// The UTC offset written in timestamps, in seconds; nil means the local zone's at each
    /// record's time.
    public let utcOffset: Int?
    /// `facility` must be in `facilities` (the forward URL parser and `diag export` check it).
    public init(facility: Int = 1, hostname: String, utcOffset: Int? = nil) {
        precondition(Self.facilities.contains(facility), "syslog facility \(facility) is outside 0…23")
        self.facility = facility
        var field = [UInt8]()
        _ = Self.appendHeaderField(hostname, maxLength: 255, to: &field)
        self.hostname = String(decoding: field, as: UTF8.self)
        self.utcOffset = utcOffset
    }

    /// This machine's name, as `gethostname(2)` gives it.
    public static func localHostname() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// RFC 5424 severity of a level: Fault → crit 2, Error → err 3, Default → notice 5,
    /// Info → info 6, Debug → debug 7.
    public static func severity(of level: MessageType) -> Int {
        switch level {
        case .fault: 2
        case .error: 3
        case .default: 5
        case .info: 6
        case .debug: 7
        }
    }

    /// The message without framing.
    public func message(for record: LogRecord) -> String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(256 + record.eventMessage.utf8.count)
        appendMessage(for: record, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The octet-counted frame: `MSG-LEN SP SYSLOG-MSG`.
    public func frame(for record: LogRecord) -> [UInt8] {
        var bytes = [UInt8]()
        appendFrame(for: record, to: &bytes)
        return bytes
    }

    /// Appends the octet-counted frame of `record` to `buffer`.
    public func appendFrame(for record: LogRecord, to buffer: inout [UInt8]) {
        let start = buffer.count
        appendMessage(for: record, to: &buffer)
        var prefix: [UInt8] = []
        Digits.append(Int64(buffer.count - start), to: &prefix)
        prefix.append(UInt8(ascii: " "))
        buffer.insert(contentsOf: prefix, at: start)
    }

    /// Appends `MSG-LEN SP` and the message bytes.
    public static func appendFrame(message: [UInt8], to buffer: inout [UInt8]) {
        Digits.append(Int64(message.count), to: &buffer)
        buffer.append(UInt8(ascii: " "))
        buffer.append(contentsOf: message)
    }

    /// Appends the unframed message of `record` to `bytes`.
    public func appendMessage(for record: LogRecord, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "<"))
        Digits.append(Int64(facility * 8 + Self.severity(of: record.messageType)), to: &bytes)
        bytes.append(contentsOf: ">1 ".utf8)
        appendTimestamp(record.timestamp, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: hostname.utf8)
        bytes.append(UInt8(ascii: " "))
        let exactProcess = Self.appendHeaderField(record.process, maxLength: 48, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        if let processID = record.processID { Digits.append(processID, to: &bytes) } else { bytes.append(UInt8(ascii: "-")) }
        bytes.append(UInt8(ascii: " "))
        let exactCategory = Self.appendHeaderField(record.category, maxLength: 32, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        StructuredDataWriter.append(record, process: !exactProcess, category: !exactCategory, to: &bytes)
        guard !record.eventMessage.isEmpty else { return }
        bytes.append(UInt8(ascii: " "))
        var message = record.eventMessage
        message.withUTF8 { text in
            if text.contains(where: { $0 >= 0x80 }) { bytes.append(contentsOf: [0xEF, 0xBB, 0xBF]) }
            bytes.append(contentsOf: text)
        }
    }

    /// `2026-11-29T09:40:01.123456+01:00` (nanoseconds since the epoch in an Int64 are always
    /// within RFC 5424's years 1…9999).
    func appendTimestamp(_ nanoseconds: Int64, to bytes: inout [UInt8]) {
        let offset = utcOffset ?? Self.localOffset(at: nanoseconds)
        Timestamp.append(nanoseconds: nanoseconds, offsetSeconds: offset, fractionDigits: 6, separator: "T", zoneColon: true, to: &bytes)
    }

    /// The local zone's UTC offset at that time, in whole minutes as RFC 3339 writes it.
    static func localOffset(at nanoseconds: Int64) -> Int {
        var seconds = time_t(nanoseconds / 1_000_000_000)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return 0 }
        return parts.tm_gmtoff / 60 * 60
    }

    /// Appends a header field as RFC 5424 §6 allows (1…maxLength printable US-ASCII, else `-`);
    /// returns whether it was written unchanged.
    static func appendHeaderField(_ value: String?, maxLength: Int, to bytes: inout [UInt8]) -> Bool {
        guard var value, !value.isEmpty else {
            bytes.append(UInt8(ascii: "-"))
            return true
        }
        let plain = value.withUTF8 { text in
            guard text.count <= maxLength, text.allSatisfy({ $0 >= 33 && $0 <= 126 }) else { return false }
            bytes.append(contentsOf: text)
            return true
        }
        if plain { return true }
        var written = 0
        for scalar in value.unicodeScalars {
            guard written < maxLength else { break }
            bytes.append(scalar.value >= 33 && scalar.value <= 126 ? UInt8(scalar.value) : UInt8(ascii: "_"))
            written += 1
        }
        return false
    }
}
