import DiagModel
import Glibc

/// `TIMESTAMP HOSTNAME APP-NAME PROCID MSGID SD [MSG]` after `<PRI>1 ` (RFC 5424 §6): strict
/// about the header and the structured data, since a sender that writes `1 ` means this format.
enum RFC5424Parser {
    static func parse(_ cursor: inout SyslogCursor, priority: SyslogPriority) throws(SyslogParseError) -> SyslogMessage {
        var message = SyslogMessage(format: .rfc5424, priority: priority, message: "")
        let time = try field(&cursor, "TIMESTAMP", maximum: 48)
        if let time {
            guard let value = Timestamp.parse(time) else {
                throw SyslogParseError("RFC 5424 TIMESTAMP '\(time)' is not an RFC 3339 time (e.g. 2026-12-01T20:15:00.123456+00:00) nor '-'")
            }
            message.timestamp = value
        }
        message.hostname = try field(&cursor, "HOSTNAME", maximum: 255)
        message.appName = try field(&cursor, "APP-NAME", maximum: 48)
        message.processID = try field(&cursor, "PROCID", maximum: 128)
        message.messageID = try field(&cursor, "MSGID", maximum: 32)
        message.structuredData = try structuredData(&cursor)
        if !cursor.atEnd {
            guard cursor.take(0x20) else {
                throw SyslogParseError("byte \(cursor.position): expected a space between STRUCTURED-DATA and MSG")
            }
            var rest = cursor.remaining
            // §6.4: a UTF-8 MSG may start with a byte-order mark, which is not text.
            if rest.count >= 3, rest[0] == 0xEF, rest[1] == 0xBB, rest[2] == 0xBF { rest = UnsafeRawBufferPointer(rebasing: rest[3...]) }
            message.message = String(decoding: rest, as: UTF8.self)
        }
        return message
    }

    /// One header field and the space after it; nil for the NILVALUE `-`.
    private static func field(_ cursor: inout SyslogCursor, _ name: String, maximum: Int) throws(SyslogParseError) -> String? {
        let start = cursor.position
        switch cursor.headerField(maximum: maximum) {
        case .value(let word): return String(decoding: word, as: UTF8.self)
        case .nilValue: return nil
        case .malformed:
            throw SyslogParseError("RFC 5424 \(name) at byte \(start) must be 1…\(maximum) printable ASCII characters or '-'")
        case .unterminated: throw SyslogParseError("RFC 5424 header ends after \(name) at byte \(cursor.position)")
        }
    }

    /// `-`, or `[SD-ID name="value" …]` elements one after another (§6.3).
    private static func structuredData(_ cursor: inout SyslogCursor) throws(SyslogParseError) -> [SyslogMessage.Element] {
        if cursor.take(UInt8(ascii: "-")) { return [] }
        var elements: [SyslogMessage.Element] = []
        var parameterCount = 0
        while cursor.peek == UInt8(ascii: "[") {
            cursor.advance()
            let id = try name(&cursor, "SD-ID")
            var element = SyslogMessage.Element(id: id, parameters: [])
            while cursor.take(0x20) {
                let parameter = try name(&cursor, "PARAM-NAME")
                guard cursor.take(UInt8(ascii: "=")), cursor.take(UInt8(ascii: "\"")) else {
                    throw SyslogParseError("structured data [\(id)] at byte \(cursor.position): expected =\" after \(parameter)")
                }
                element.parameters.append((parameter, try quoted(&cursor, id: id)))
                parameterCount += 1
                guard parameterCount <= SyslogParser.maximumParameters else {
                    throw SyslogParseError("structured data holds more than \(SyslogParser.maximumParameters) parameters")
                }
            }
            guard cursor.take(UInt8(ascii: "]")) else {
                throw SyslogParseError("structured data [\(id)] at byte \(cursor.position): expected ] or a parameter")
            }
            elements.append(element)
        }
        guard !elements.isEmpty else {
            throw SyslogParseError("RFC 5424 STRUCTURED-DATA at byte \(cursor.position) must be '-' or [SD-ID name=\"value\" …]")
        }
        return elements
    }

    private static func name(_ cursor: inout SyslogCursor, _ what: String) throws(SyslogParseError) -> String {
        let start = cursor.position
        guard let name = cursor.sdName() else {
            throw SyslogParseError("structured data \(what) at byte \(start) must be 1…32 printable ASCII characters without = ] \" or space")
        }
        return String(decoding: name, as: UTF8.self)
    }

    private static func quoted(_ cursor: inout SyslogCursor, id: String) throws(SyslogParseError) -> String {
        var bytes: [UInt8] = []
        guard cursor.quotedValue(into: &bytes) else { throw SyslogParseError("structured data [\(id)]: a value has no closing quote") }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A position in a message's bytes.
struct SyslogCursor {
    let bytes: UnsafeRawBufferPointer
    private(set) var position = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var atEnd: Bool { position >= bytes.count }
    var peek: UInt8? { atEnd ? nil : bytes[position] }
    var remaining: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[min(position, bytes.count)...]) }

    mutating func advance(_ count: Int = 1) { position += count }

    mutating func take(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        position += 1
        return true
    }

    /// Takes `prefix` when the bytes go on with it (a literal: no array made per message).
    mutating func take(prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count - position >= count, count == 0 || memcmp(bytes.baseAddress! + position, prefix.utf8Start, count) == 0
        else { return false }
        position += count
        return true
    }

    /// Up to `maximumCount` decimal digits (at least one).
    mutating func digits(maximumCount: Int) -> Int? {
        var value = 0
        var count = 0
        while count < maximumCount, let byte = peek, byte &- 0x30 < 10 {
            value = value * 10 + Int(byte - 0x30)
            count += 1
            position += 1
        }
        return count == 0 ? nil : value
    }

    /// The bytes up to the next space or the end.
    mutating func word() -> UnsafeRawBufferPointer {
        let start = position
        while let byte = peek, byte != 0x20 { position += 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<position])
    }

    // RFC 5424's rules, shared by `RFC5424Parser` and `SyslogRowReader`.

    enum HeaderField {
        case value(UnsafeRawBufferPointer)
        /// The NILVALUE `-`.
        case nilValue
        /// Empty, longer than allowed, or not printable ASCII.
        case malformed
        /// No space after it.
        case unterminated
    }

    /// A header field (1…`maximum` printable ASCII characters, or `-`) and the space after it.
    mutating func headerField(maximum: Int) -> HeaderField {
        let word = word()
        guard !word.isEmpty, word.count <= maximum, word.allSatisfy({ $0 >= 33 && $0 <= 126 }) else { return .malformed }
        guard take(0x20) else { return .unterminated }
        return word.count == 1 && word[0] == UInt8(ascii: "-") ? .nilValue : .value(word)
    }

    /// An SD-NAME: 1…32 printable ASCII characters but `=`, `]` and `"`; nil (having read what
    /// there was) for none or more than 32.
    mutating func sdName() -> UnsafeRawBufferPointer? {
        let start = position
        while let byte = peek, byte >= 33, byte <= 126, byte != UInt8(ascii: "="), byte != UInt8(ascii: "]"), byte != UInt8(ascii: "\"") {
            position += 1
        }
        guard (1...32).contains(position - start) else { return nil }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<position])
    }

    /// A PARAM-VALUE after its opening quote, up to and past the closing one, appended to
    /// `value` with `\"`, `\\` and `\]` unescaped (§6.3.3; any other `\` is itself; runs
    /// without either are copied whole); false when no closing quote comes.
    mutating func quotedValue(into value: inout [UInt8]) -> Bool {
        var run = position
        var index = run
        while index < bytes.count {
            let byte = bytes[index]
            if byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            value.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[run..<index]))
            if byte == UInt8(ascii: "\"") {
                position = index + 1
                return true
            }
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            if next == UInt8(ascii: "\"") || next == UInt8(ascii: "\\") || next == UInt8(ascii: "]") {
                value.append(next)
                index += 2
            } else {
                value.append(byte)
                index += 1
            }
            run = index
        }
        position = bytes.count
        return false
    }
}
