extension Timestamp {
    /// `Timestamp.parse` for text from outside (JSON fields, log lines): a fraction longer than
    /// nine digits is cut to nine first, because `parse` traps on such fractions (found by
    /// Fuzz/Import); digits past nanoseconds carry nothing a record can hold anyway.
    public static func parseUntrusted(_ text: some StringProtocol, defaultOffsetSeconds: Int = 0) -> Int64? {
        guard hasLongFraction(text.utf8) else { return parse(text, defaultOffsetSeconds: defaultOffsetSeconds) }
        let utf8 = Array(text.utf8)
        var kept: [UInt8] = []
        kept.reserveCapacity(utf8.count)
        var fractionDigits: Int?
        for byte in utf8 {
            let isDigit = byte &- UInt8(ascii: "0") < 10
            if let count = fractionDigits, isDigit {
                fractionDigits = count + 1
                if count >= 9 { continue }
            } else {
                fractionDigits = (byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",")) ? 0 : nil
            }
            kept.append(byte)
        }
        return parse(String(decoding: kept, as: UTF8.self), defaultOffsetSeconds: defaultOffsetSeconds)
    }

    private static func hasLongFraction(_ utf8: some Sequence<UInt8>) -> Bool {
        var fractionDigits: Int?
        for byte in utf8 {
            if let count = fractionDigits, byte &- UInt8(ascii: "0") < 10 {
                if count == 9 { return true }
                fractionDigits = count + 1
            } else {
                fractionDigits = (byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",")) ? 0 : nil
            }
        }
        return false
    }
}
