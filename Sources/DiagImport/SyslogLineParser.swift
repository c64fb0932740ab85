import DiagModel

/// Parses BSD syslog lines (RFC 3164 as written to files): `[<PRI>]Mmm dd HH:MM:SS host TAG: message`,
/// and rsyslog's high-precision form, whose time is RFC 3339 with its zone
/// (`2026-11-29T09:40:01.123456+01:00 host TAG: message`).
///
/// The tag is `name[pid]`, optionally followed by ` (context)` as in macOS's `system.log`; the
/// name may hold spaces and parentheses (`Microsoft Word[14463]`, `sshd(pam_unix)[19939]`). A tag
/// without `[pid]` is one word (`kernel:`); when the text before the first `: ` has spaces and no
/// `[pid]`, the first word is the process (`syslogd 1.4.1: restart.`).
struct SyslogLineParser {
    private var calendar: WallClock

    init(calendar: WallClock) {
        self.calendar = calendar
    }

    static func looksLikeHeader(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var cursor = ByteCursor(UnsafeBufferPointer(rebasing: line))
        return header(&cursor) != nil
    }

    struct Header {
        var priority: Int64?
        /// Nanoseconds since the epoch, for an RFC 3339 time; the other fields are then unused.
        var absolute: Int64?
        var month: Int
        var day: Int64
        var secondOfDay: Int64
        var nanoseconds: Int64
    }

    /// Reads `[<PRI>]Mmm dd HH:MM:SS[.fraction] ` at the cursor.
    static func header(_ cursor: inout ByteCursor) -> Header? {
        var priority: Int64?
        if cursor.take(UInt8(ascii: "<")) {
            guard let value = cursor.number(maximum: 3), value < 192, cursor.take(UInt8(ascii: ">")) else { return nil }
            priority = value
        }
        if let first = cursor.current, first &- 0x30 < 10 {
            let word = cursor.word()
            guard word.count >= 20, word[10] == UInt8(ascii: "T"),
                  let absolute = Timestamp.parse(String(decoding: word, as: UTF8.self)),
                  cursor.take(0x20)
            else { return nil }
            return Header(priority: priority, absolute: absolute, month: 1, day: 1, secondOfDay: 0, nanoseconds: 0)
        }
        guard let month = monthNumber(cursor.word()), cursor.skipSpaces() >= 1,
              let day = cursor.number(maximum: 2), day >= 1, day <= 31, cursor.skipSpaces() == 1,
              let time = cursor.timeOfDay(fractionRequired: false),
              cursor.atEnd || cursor.take(0x20)
        else { return nil }
        return Header(priority: priority, absolute: nil, month: month, day: day, secondOfDay: time.seconds, nanoseconds: time.nanoseconds)
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"].map { Array($0.utf8) }

    private static func monthNumber(_ word: UnsafeBufferPointer<UInt8>) -> Int? {
        guard word.count == 3 else { return nil }
        let lowered = word.map { $0 | 0x20 }
        return months.firstIndex(of: lowered).map { $0 + 1 }
    }

    enum Outcome {
        case record(LogRecord, invalidUTF8Column: Int?)
        case notSyslog
        case refused(column: Int, reason: String)
    }

    mutating func parse(_ line: UnsafeBufferPointer<UInt8>) -> Outcome {
        var cursor = ByteCursor(line)
        guard let header = Self.header(&cursor) else { return .notSyslog }
        guard let timestamp = header.absolute ?? calendar.nanoseconds(
            month: header.month, day: header.day, secondOfDay: header.secondOfDay, nanoseconds: header.nanoseconds)
        else {
            return .refused(column: 1, reason: "no such date: day \(header.day) of month \(header.month) in \(calendar.year)")
        }
        let host = cursor.word()
        cursor.skipSpaces()
        let (text, invalidColumn) = decodeText(cursor.rest)
        var record = LogRecord(timestamp: timestamp, messageType: Self.level(header.priority), eventMessage: "")
        var metadata: [String: JSONValue] = ["hostname": .string(String(decoding: host, as: UTF8.self))]
        Self.splitTag(text, into: &record, metadata: &metadata)
        record.metadata = metadata
        return .record(record, invalidUTF8Column: invalidColumn.map { $0 + cursor.index })
    }

    /// Syslog severities 0–7 (the low three bits of PRI) as levels.
    static func level(_ priority: Int64?) -> MessageType {
        guard let priority else { return .default }
        switch priority & 7 {
        case 0, 1, 2: return .fault
        case 3: return .error
        case 6: return .info
        case 7: return .debug
        default: return .default
        }
    }

    static func splitTag(_ text: String, into record: inout LogRecord, metadata: inout [String: JSONValue]) {
        let utf8 = text.utf8
        guard let colon = firstTagColon(utf8) else {
            record.eventMessage = text
            return
        }
        let tag = text[..<colon]
        var messageStart = utf8.index(after: colon)
        if messageStart < utf8.endIndex, utf8[messageStart] == UInt8(ascii: " ") { messageStart = utf8.index(after: messageStart) }
        let message = String(text[messageStart...])
        var base = tag
        if tag.hasSuffix(")"), let contextStart = tag.range(of: "] (") {
            base = tag[..<tag.index(after: contextStart.lowerBound)]
            metadata["context"] = .string(String(tag[contextStart.upperBound..<tag.index(before: tag.endIndex)]))
        }
        if base.hasSuffix("]"), let open = base.lastIndex(of: "["), open > base.startIndex,
           let pid = Int64(base[base.index(after: open)..<base.index(before: base.endIndex)])
        {
            record.process = String(base[..<open])
            record.processID = pid
            record.eventMessage = message
        } else if !tag.contains(" ") {
            record.process = tag.isEmpty ? nil : String(tag)
            record.eventMessage = message
        } else if let space = text.firstIndex(of: " ") {
            record.process = String(text[..<space])
            record.eventMessage = String(text[text.index(after: space)...])
        } else {
            record.eventMessage = text
        }
    }

    /// The first `:` followed by a space or the end of the line.
    private static func firstTagColon(_ utf8: String.UTF8View) -> String.Index? {
        var index = utf8.startIndex
        while index < utf8.endIndex {
            if utf8[index] == UInt8(ascii: ":") {
                let next = utf8.index(after: index)
                if next == utf8.endIndex || utf8[next] == UInt8(ascii: " ") { return index }
            }
            index = utf8.index(after: index)
        }
        return nil
    }
}
