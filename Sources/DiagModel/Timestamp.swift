/// Formatting and parsing of record timestamps (nanoseconds since the Unix epoch), without
/// `DateFormatter`, which is far too slow for a million lines.
public enum Timestamp {
    public static let nanosecondsPerSecond: Int64 = 1_000_000_000

    /// `2026-11-29 09:40:01.123456+0000`, as `log show` prints it, in the given UTC offset.
    public static func format(nanoseconds: Int64, offsetSeconds: Int = 0) -> String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(31)
        append(nanoseconds: nanoseconds, offsetSeconds: offsetSeconds, fractionDigits: 6, separator: " ", zoneColon: false, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `2026-11-29T09:40:01.123456789Z` style (ISO 8601), for formats that want it.
    public static func formatISO8601(nanoseconds: Int64, offsetSeconds: Int = 0, fractionDigits: Int = 6) -> String {
        var bytes = [UInt8]()
        append(nanoseconds: nanoseconds, offsetSeconds: offsetSeconds, fractionDigits: fractionDigits, separator: "T", zoneColon: true, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends a formatted timestamp: date, `separator`, time with `fractionDigits` (0…9), zone.
    /// Written into a buffer on the stack (`write`), then appended at once.
    public static func append(
        nanoseconds: Int64, offsetSeconds: Int, fractionDigits: Int, separator: Character,
        zoneColon: Bool, to bytes: inout [UInt8]
    ) {
        // 10 (date) + 1 (separator) + 8 (time) + 10 (fraction) + 6 (zone) bytes at most.
        var storage: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &storage) { raw in
            let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            if let ascii = separator.asciiValue {
                let count = write(nanoseconds: nanoseconds, offsetSeconds: offsetSeconds, fractionDigits: fractionDigits,
                                  separator: ascii, zoneColon: zoneColon, to: base)
                bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
                return
            }
            // A separator of several bytes goes between the date and the time.
            let count = write(nanoseconds: nanoseconds, offsetSeconds: offsetSeconds, fractionDigits: fractionDigits,
                              separator: UInt8(ascii: " "), zoneColon: zoneColon, to: base)
            bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: 10))
            bytes.append(contentsOf: String(separator).utf8)
            bytes.append(contentsOf: UnsafeBufferPointer(start: base + 11, count: count - 11))
        }
    }

    /// The longest `write` writes: date, separator, time, nine fraction digits, `+hh:mm`.
    public static let maximumWrittenLength = 35

    /// Writes a formatted timestamp at `destination` (room for `maximumWrittenLength` bytes),
    /// as `append` does with an ASCII separator; returns the number of bytes written.
    public static func write(
        nanoseconds: Int64, offsetSeconds: Int, fractionDigits: Int, separator: UInt8,
        zoneColon: Bool, to destination: UnsafeMutablePointer<UInt8>
    ) -> Int {
        let local = nanoseconds &+ Int64(offsetSeconds) &* nanosecondsPerSecond
        var seconds = local / nanosecondsPerSecond
        var fraction = local % nanosecondsPerSecond
        if fraction < 0 { fraction += nanosecondsPerSecond; seconds -= 1 }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 { secondOfDay += 86_400; days -= 1 }
        let (year, month, day) = civil(fromDays: days)
        var out = DigitWriter(base: destination)
        out.digits(year, 4); out.byte(UInt8(ascii: "-"))
        out.digits(Int64(month), 2); out.byte(UInt8(ascii: "-"))
        out.digits(Int64(day), 2)
        out.byte(separator)
        out.digits(secondOfDay / 3600, 2); out.byte(UInt8(ascii: ":"))
        out.digits(secondOfDay / 60 % 60, 2); out.byte(UInt8(ascii: ":"))
        out.digits(secondOfDay % 60, 2)
        if fractionDigits > 0 {
            out.byte(UInt8(ascii: "."))
            var scaled = fraction
            for _ in 0..<(9 - min(fractionDigits, 9)) { scaled /= 10 }
            out.digits(scaled, min(fractionDigits, 9))
        }
        if zoneColon && offsetSeconds == 0 {
            out.byte(UInt8(ascii: "Z"))
        } else {
            out.byte(offsetSeconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            let offsetMinutes = abs(offsetSeconds) / 60
            out.digits(Int64(offsetMinutes / 60), 2)
            if zoneColon { out.byte(UInt8(ascii: ":")) }
            out.digits(Int64(offsetMinutes % 60), 2)
        }
        return out.count
    }

    /// ASCII bytes written at a pointer, `width` digits at a time (the low ones of the value,
    /// negative values as zeros).
    private struct DigitWriter {
        let base: UnsafeMutablePointer<UInt8>
        var count = 0

        @inline(__always)
        mutating func byte(_ byte: UInt8) {
            base[count] = byte
            count += 1
        }

        @inline(__always)
        mutating func digits(_ value: Int64, _ width: Int) {
            var value = value < 0 ? 0 : value
            var index = width - 1
            while index >= 0 {
                base[count + index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
                index -= 1
            }
            count += width
        }
    }

    /// Days since 1970-01-01 → (year, month, day), proleptic Gregorian (H. Hinnant's algorithm).
    public static func civil(fromDays days: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// (year, month, day) → days since 1970-01-01.
    public static func days(year: Int64, month: Int, day: Int) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Parses `YYYY-MM-DD[( |T)HH:MM[:SS[.fraction]]][Z|±HH|±HHMM|±HH:MM]`.
    ///
    /// A value without a zone is read in `defaultOffsetSeconds` (UTC unless told otherwise);
    /// a date alone means midnight. Returns nil for anything else, including impossible dates.
    public static func parse(_ text: some StringProtocol, defaultOffsetSeconds: Int = 0) -> Int64? {
        var scanner = DigitScanner(Array(text.utf8))
        scanner.skipBlanks()
        guard let year = scanner.number(exactly: 4), scanner.take("-"),
              let month = scanner.number(exactly: 2), scanner.take("-"),
              let day = scanner.number(exactly: 2),
              (1...12).contains(month), day >= 1, day <= daysIn(month: Int(month), year: year)
        else { return nil }
        var seconds = days(year: year, month: Int(month), day: Int(day)) * 86_400
        var fraction: Int64 = 0
        if scanner.take(" ") || scanner.take("T") {
            guard let hour = scanner.number(exactly: 2), scanner.take(":"),
                  let minute = scanner.number(exactly: 2), hour < 24, minute < 60
            else { return nil }
            seconds += hour * 3600 + minute * 60
            if scanner.take(":") {
                guard let second = scanner.number(exactly: 2), second < 61 else { return nil }
                seconds += second
                if scanner.take(".") || scanner.take(",") {
                    var count = 0
                    while let digit = scanner.digit() {
                        if count < 9 { fraction = fraction * 10 + digit }
                        count += 1
                    }
                    guard count > 0 else { return nil }
                    for _ in min(count, 9)..<9 { fraction *= 10 }
                }
            }
        }
        var offset = Int64(defaultOffsetSeconds)
        if scanner.take("Z") || scanner.take("z") {
            offset = 0
        } else if let sign = scanner.sign() {
            guard let hours = scanner.number(exactly: 2) else { return nil }
            var minutes: Int64 = 0
            if scanner.take(":") {
                guard let value = scanner.number(exactly: 2) else { return nil }
                minutes = value
            } else if let value = scanner.number(exactly: 2) {
                minutes = value
            }
            guard hours <= 18, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        scanner.skipBlanks()
        guard scanner.atEnd else { return nil }
        let (total, overflow) = (seconds - offset).multipliedReportingOverflow(by: nanosecondsPerSecond)
        guard !overflow else { return nil }
        return total + fraction
    }

    public static func daysIn(month: Int, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// A cursor over ASCII bytes for the timestamp parser.
struct DigitScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    mutating func skipBlanks() {
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
    }

    mutating func digit() -> Int64? {
        guard index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else { return nil }
        defer { index += 1 }
        return Int64(bytes[index] - UInt8(ascii: "0"))
    }

    mutating func number(exactly count: Int) -> Int64? {
        let start = index
        var value: Int64 = 0
        for _ in 0..<count {
            guard let digit = digit() else { index = start; return nil }
            value = value * 10 + digit
        }
        return value
    }

    mutating func sign() -> Int64? {
        if take("+") { return 1 }
        if take("-") { return -1 }
        return nil
    }
}
