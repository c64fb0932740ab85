import DiagModel
import Foundation

/// Parses Android `logcat -v threadtime` lines: `MM-DD HH:MM:SS.mmm  pid  tid L Tag: message`
/// (a `YYYY-` before the date, from `-v year`, is read too).
///
/// Mapping: pid → `processID`, tid → `threadID`, the tag → `sender` and `category` (logcat
/// names no process), V/D → Debug, I → Info, W → Default, E → Error, F/A → Fault.
struct LogcatLineParser {
    private var calendar: WallClock

    init(calendar: WallClock) {
        self.calendar = calendar
    }

    /// `--------- beginning of main`: the marker logcat prints when a buffer starts.
    static func isBufferBanner(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        line.starts(with: "--------- beginning of ".utf8)
    }

    static func looksLikeHeader(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var cursor = ByteCursor(UnsafeBufferPointer(rebasing: line))
        return header(&cursor) != nil
    }

    struct Header {
        var year: Int64?
        var month: Int
        var day: Int64
        var secondOfDay: Int64
        var nanoseconds: Int64
        var pid: Int64
        var tid: Int64
        var level: MessageType
    }

    static func header(_ cursor: inout ByteCursor) -> Header? {
        var year: Int64?
        let start = cursor.index
        if let value = cursor.number(minimum: 4, maximum: 4), cursor.take(UInt8(ascii: "-")) {
            year = value
        } else {
            cursor.index = start
        }
        guard let month = cursor.number(minimum: 2, maximum: 2), cursor.take(UInt8(ascii: "-")),
              let day = cursor.number(minimum: 2, maximum: 2), cursor.skipSpaces() == 1,
              let time = cursor.timeOfDay(fractionRequired: true), cursor.skipSpaces() >= 1,
              let pid = cursor.number(maximum: 10), cursor.skipSpaces() >= 1,
              let tid = cursor.number(maximum: 10), cursor.skipSpaces() == 1,
              let letter = cursor.current, let level = level(letter)
        else { return nil }
        cursor.index += 1
        guard cursor.atEnd || cursor.take(0x20) else { return nil }
        return Header(year: year, month: Int(month), day: day, secondOfDay: time.seconds, nanoseconds: time.nanoseconds,
                      pid: pid, tid: tid, level: level)
    }

    static func level(_ letter: UInt8) -> MessageType? {
        switch letter {
        case UInt8(ascii: "V"), UInt8(ascii: "D"): .debug
        case UInt8(ascii: "I"): .info
        case UInt8(ascii: "W"): .default
        case UInt8(ascii: "E"): .error
        case UInt8(ascii: "F"), UInt8(ascii: "A"): .fault
        default: nil
        }
    }

    enum Outcome {
        case record(LogRecord, invalidUTF8Column: Int?)
        case notLogcat
        case refused(column: Int, reason: String)
    }

    mutating func parse(_ line: UnsafeBufferPointer<UInt8>) -> Outcome {
        var cursor = ByteCursor(line)
        guard let header = Self.header(&cursor) else { return .notLogcat }
        guard let timestamp = calendar.nanoseconds(
            explicitYear: header.year, month: header.month, day: header.day, secondOfDay: header.secondOfDay,
            nanoseconds: header.nanoseconds)
        else {
            return .refused(column: 1, reason: "no such date: day \(header.day) of month \(header.month) in \(header.year ?? calendar.year)")
        }
        let (text, invalidColumn) = decodeText(cursor.rest)
        var record = LogRecord(
            timestamp: timestamp, messageType: header.level, processID: header.pid, threadID: header.tid, eventMessage: text)
        if let separator = text.range(of: ": ") ?? (text.hasSuffix(":") ? text.range(of: ":", options: .backwards) : nil) {
            let tag = text[..<separator.lowerBound].trimmingCharacters(in: .whitespaces)
            record.sender = tag
            record.category = tag
            record.eventMessage = String(text[separator.upperBound...])
        }
        return .record(record, invalidUTF8Column: invalidColumn.map { $0 + cursor.index })
    }
}
