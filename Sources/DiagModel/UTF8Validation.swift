/// UTF-8 checked in place, for writers that copy a column's bytes: well-formed bytes are the
/// bytes `String(decoding:as:)` would hold, so they need no repair.
public enum UTF8Validation {
    /// Whether every byte is below 0x80, eight at a time: log text is long and almost always
    /// ASCII (the reader's `CONTAINS` and the writer's block sets ask it of every message).
    @inlinable
    public static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= bytes.count {
            if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }

    /// Whether `bytes` are well-formed UTF-8 (Unicode 3.9, table 3-7: no overlong forms, no
    /// surrogates, nothing past U+10FFFF, nothing cut short): then `String(decoding:as:)` holds
    /// the very same bytes, and a writer can take them without making a `String` to repair them.
    public static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xED: length = 3; high = 0x9F
            case 0xE1...0xEF: length = 3
            case 0xF0: length = 4; low = 0x90
            case 0xF4: length = 4; high = 0x8F
            case 0xF1...0xF3: length = 4
            default: return false
            }
            guard index + length <= count, bytes[index + 1] >= low, bytes[index + 1] <= high else { return false }
            for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }
}
