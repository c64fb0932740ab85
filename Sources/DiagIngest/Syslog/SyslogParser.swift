import DiagModel

/// Reads RFC 5424 and RFC 3164 messages from their bytes (a datagram, or one TCP frame).
///
/// Bounded: a frame is at most `SyslogFraming.maximumMessageLength` bytes before it gets here,
/// and structured data at most `maximumParameters` parameters. Text that is not UTF-8 is kept
/// with U+FFFD in place of the bad bytes, as `log` shows it.
enum SyslogParser {
    static let maximumParameters = 256

    static func parse(_ bytes: UnsafeRawBufferPointer) throws(SyslogParseError) -> SyslogMessage {
        var end = bytes.count
        // glibc and Python end a datagram with NUL or LF; neither is part of the message.
        while end > 0, bytes[end - 1] == 0 || bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        var cursor = SyslogCursor(UnsafeRawBufferPointer(rebasing: bytes[0..<end]))
        guard !cursor.atEnd else { throw SyslogParseError("empty message") }
        var priority = SyslogPriority.missing
        if cursor.peek == UInt8(ascii: "<") {
            cursor.advance()
            guard let value = cursor.digits(maximumCount: 3), cursor.take(UInt8(ascii: ">")),
                  let parsed = SyslogPriority(value: value)
            else { throw SyslogParseError("bad PRI at byte 0: expected <0…191> (facility * 8 + severity)") }
            priority = parsed
        }
        if cursor.take(prefix: "1 ") {
            return try RFC5424Parser.parse(&cursor, priority: priority)
        }
        return RFC3164Parser.parse(&cursor, priority: priority)
    }

    static func parse(_ bytes: [UInt8]) throws(SyslogParseError) -> SyslogMessage {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(SyslogParseError) in try parse(raw) } }
        return try result.get()
    }
}

/// `[Mmm dd hh:mm:ss ][HOST ]TAG[PID]: MSG`, leniently: what is not a header is message.
enum RFC3164Parser {
    static func parse(_ cursor: inout SyslogCursor, priority: SyslogPriority) -> SyslogMessage {
        var message = SyslogMessage(format: .rfc3164, priority: priority, message: "")
        let hadTime = skipBSDTime(&cursor) || readRFC3339Time(&cursor, into: &message)
        let rest = cursor.remaining
        let words = firstWords(rest)
        if let tag = words.first.flatMap({ parseTag(rest, $0) }) {
            (message.appName, message.processID) = (tag.name, tag.pid)
            message.message = text(rest, from: tag.end)
        } else if hadTime, words.count == 2, let tag = parseTag(rest, words[1]) {
            message.hostname = text(rest, words[0])
            (message.appName, message.processID) = (tag.name, tag.pid)
            message.message = text(rest, from: tag.end)
        } else {
            message.message = text(rest, from: 0)
        }
        return message
    }

    /// `Mmm dd hh:mm:ss ` (the day space-padded): skipped, since it has no year and no zone.
    private static func skipBSDTime(_ cursor: inout SyslogCursor) -> Bool {
        let rest = cursor.remaining
        guard rest.count >= 16, rest[3] == 0x20, rest[6] == 0x20, rest[9] == UInt8(ascii: ":"),
              rest[12] == UInt8(ascii: ":"), rest[15] == 0x20,
              months.contains(String(decoding: rest[0..<3], as: UTF8.self).lowercased())
        else { return false }
        let digitPositions = [5, 7, 8, 10, 11, 13, 14]
        guard digitPositions.allSatisfy({ rest[$0] &- 0x30 < 10 }), rest[4] == 0x20 || rest[4] &- 0x30 < 10 else { return false }
        cursor.advance(16)
        return true
    }

    /// rsyslog's high-precision form writes an RFC 3339 time where BSD's would be.
    private static func readRFC3339Time(_ cursor: inout SyslogCursor, into message: inout SyslogMessage) -> Bool {
        let rest = cursor.remaining
        guard rest.count > 20, rest[4] == UInt8(ascii: "-"), rest[10] == UInt8(ascii: "T"),
              let space = rest.firstIndex(of: 0x20),
              let time = Timestamp.parse(String(decoding: rest[0..<space], as: UTF8.self))
        else { return false }
        message.timestamp = time
        cursor.advance(space + 1)
        return true
    }

    private static let months: Set = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The ranges of the first two space-separated words.
    private static func firstWords(_ rest: UnsafeRawBufferPointer) -> [Range<Int>] {
        var words: [Range<Int>] = []
        var start = 0
        while words.count < 2 && start < rest.count {
            var end = start
            while end < rest.count && rest[end] != 0x20 { end += 1 }
            words.append(start..<end)
            start = end + 1
        }
        return words
    }

    /// `name:`, `name[pid]:` or `name[pid]` followed by text: the tag, and where the message starts.
    private static func parseTag(_ rest: UnsafeRawBufferPointer, _ word: Range<Int>) -> (name: String, pid: String?, end: Int)? {
        guard !word.isEmpty, word.count <= 128 else { return nil }
        if let open = rest[word].firstIndex(of: UInt8(ascii: "[")), open > word.lowerBound,
           let close = rest[open..<word.upperBound].firstIndex(of: UInt8(ascii: "]")) {
            let after = close + 1
            guard after == word.upperBound || (after == word.upperBound - 1 && rest[after] == UInt8(ascii: ":")) else { return nil }
            return (text(rest, word.lowerBound..<open), text(rest, (open + 1)..<close), word.upperBound + 1)
        }
        guard rest[word.upperBound - 1] == UInt8(ascii: ":"), word.count > 1 else { return nil }
        return (text(rest, word.lowerBound..<(word.upperBound - 1)), nil, word.upperBound + 1)
    }

    static func text(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    static func text(_ bytes: UnsafeRawBufferPointer, from start: Int) -> String {
        start >= bytes.count ? "" : String(decoding: bytes[start...], as: UTF8.self)
    }
}
