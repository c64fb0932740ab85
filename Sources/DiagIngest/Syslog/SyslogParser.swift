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
        let rest = cursor.remaining
        let header = Header(rest)
        var message = SyslogMessage(format: .rfc3164, priority: priority, message: text(rest, header.message))
        message.timestamp = header.timestamp
        message.hostname = header.hostname.map { text(rest, $0) }
        message.appName = header.tag.map { text(rest, $0.name) }
        message.processID = header.tag?.pid.map { text(rest, $0) }
        return message
    }

    /// Where the parts of a BSD message lie in its bytes after the PRI: the rules both
    /// `parse` and `SyslogRowReader` follow. Every cut is at an ASCII byte (a space, `[`, `]`,
    /// `:`, the end of a BSD time), so each part of well-formed UTF-8 is well-formed too.
    struct Header {
        /// An RFC 3339 time where the BSD time would be (a BSD time is skipped: no year, no zone).
        var timestamp: Int64?
        var hostname: Range<Int>?
        var tag: (name: Range<Int>, pid: Range<Int>?)?
        var message: Range<Int>

        init(_ bytes: UnsafeRawBufferPointer) {
            var offset = 0
            var hadTime = false
            if let length = RFC3164Parser.bsdTimeLength(bytes) {
                (offset, hadTime) = (length, true)
            } else if let (time, length) = RFC3164Parser.rfc3339Time(bytes) {
                (timestamp, offset, hadTime) = (time, length, true)
            }
            let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
            let words = RFC3164Parser.firstWords(rest)
            func shifted(_ range: Range<Int>) -> Range<Int> { (range.lowerBound + offset)..<(range.upperBound + offset) }
            func message(from start: Int) -> Range<Int> { start >= rest.count ? bytes.count..<bytes.count : (offset + start)..<bytes.count }
            if let found = words.first.flatMap({ RFC3164Parser.parseTag(rest, $0) }) {
                tag = (shifted(found.name), found.pid.map(shifted))
                self.message = message(from: found.end)
            } else if hadTime, words.count == 2, let found = RFC3164Parser.parseTag(rest, words[1]) {
                hostname = shifted(words[0])
                tag = (shifted(found.name), found.pid.map(shifted))
                self.message = message(from: found.end)
            } else {
                self.message = offset..<bytes.count
            }
        }
    }

    /// `Mmm dd hh:mm:ss ` (the day space-padded): its length, 16, when `rest` starts with one.
    /// Read byte by byte, as every BSD message is (both readers come here): the month's letters
    /// in either case, compared as one word with the twelve names.
    private static func bsdTimeLength(_ rest: UnsafeRawBufferPointer) -> Int? {
        guard rest.count >= 16, rest[3] == 0x20, rest[6] == 0x20, rest[9] == UInt8(ascii: ":"),
              rest[12] == UInt8(ascii: ":"), rest[15] == 0x20
        else { return nil }
        var month: UInt32 = 0
        for index in 0..<3 {
            let byte = rest[index]
            // ASCII letters only (`| 0x20` lowers them); anything else is no month.
            guard (byte | 0x20) &- UInt8(ascii: "a") < 26 else { return nil }
            month = month << 8 | UInt32(byte | 0x20)
        }
        guard months.contains(month) else { return nil }
        for index in [5, 7, 8, 10, 11, 13, 14] where rest[index] &- 0x30 >= 10 { return nil }
        guard rest[4] == 0x20 || rest[4] &- 0x30 < 10 else { return nil }
        return 16
    }

    /// rsyslog's high-precision form writes an RFC 3339 time where BSD's would be: the time, and
    /// its length with the space after it.
    private static func rfc3339Time(_ rest: UnsafeRawBufferPointer) -> (Int64, Int)? {
        guard rest.count > 20, rest[4] == UInt8(ascii: "-"), rest[10] == UInt8(ascii: "T"),
              let space = rest.firstIndex(of: 0x20),
              let time = Timestamp.parse(String(decoding: rest[0..<space], as: UTF8.self))
        else { return nil }
        return (time, space + 1)
    }

    /// The month names in lower case, each as the big-endian word of its three letters.
    private static let months: [UInt32] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        .map { $0.utf8.reduce(0) { $0 << 8 | UInt32($1) } }

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

    /// `name:`, `name[pid]:` or `name[pid]` followed by text: the tag's name and PID, and where
    /// the message starts.
    private static func parseTag(_ rest: UnsafeRawBufferPointer, _ word: Range<Int>) -> (name: Range<Int>, pid: Range<Int>?, end: Int)? {
        guard !word.isEmpty, word.count <= 128 else { return nil }
        if let open = rest[word].firstIndex(of: UInt8(ascii: "[")), open > word.lowerBound,
           let close = rest[open..<word.upperBound].firstIndex(of: UInt8(ascii: "]")) {
            let after = close + 1
            guard after == word.upperBound || (after == word.upperBound - 1 && rest[after] == UInt8(ascii: ":")) else { return nil }
            return (word.lowerBound..<open, (open + 1)..<close, word.upperBound + 1)
        }
        guard rest[word.upperBound - 1] == UInt8(ascii: ":"), word.count > 1 else { return nil }
        return (word.lowerBound..<(word.upperBound - 1), nil, word.upperBound + 1)
    }

    static func text(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }
}
