/// Exact string comparison and search by Unicode scalars on UTF-8 bytes (PREDICATES.md §5.1, §5.3).
///
/// Swift's `==` on `String` is canonical equivalence; predicates without options compare scalars
/// exactly, so everything here works on bytes (UTF-8 byte order is scalar order). A match may not
/// start or end inside a combining sequence: `CONTAINS "Cafe"` is false for `Cafe\u{301}`.
enum StringSearch {
    static func equal(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count && lhs.utf8.elementsEqual(rhs.utf8)
    }

    static func compare(_ lhs: String, _ rhs: String) -> Int {
        var lhs = lhs, rhs = rhs
        return lhs.withUTF8 { a in
            rhs.withUTF8 { b in
                let common = min(a.count, b.count)
                for index in 0..<common where a[index] != b[index] {
                    return a[index] < b[index] ? -1 : 1
                }
                return a.count < b.count ? -1 : a.count == b.count ? 0 : 1
            }
        }
    }

    static func hasPrefix(_ text: String, _ prefix: String) -> Bool {
        guard !prefix.isEmpty else { return false }
        var text = text, prefix = prefix
        return text.withUTF8 { haystack in
            prefix.withUTF8 { needle in
                needle.count <= haystack.count
                    && memoryEqual(haystack, 0, needle)
                    && isBoundary(haystack, needle.count)
            }
        }
    }

    static func hasSuffix(_ text: String, _ suffix: String) -> Bool {
        guard !suffix.isEmpty else { return false }
        var text = text, suffix = suffix
        return text.withUTF8 { haystack in
            suffix.withUTF8 { needle in
                let start = haystack.count - needle.count
                return start >= 0 && memoryEqual(haystack, start, needle) && isBoundary(haystack, start)
            }
        }
    }

    static func contains(_ text: String, _ substring: String) -> Bool {
        guard !substring.isEmpty else { return false }
        var text = text, substring = substring
        return text.withUTF8 { haystack in
            substring.withUTF8 { needle in contains(haystack, needle) }
        }
    }

    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return false }
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first, memoryEqual(haystack, index, needle),
               isBoundary(haystack, index), isBoundary(haystack, index + needle.count)
            {
                return true
            }
            index += 1
        }
        return false
    }

    private static func memoryEqual(_ haystack: UnsafeBufferPointer<UInt8>, _ start: Int, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        for offset in 0..<needle.count where haystack[start + offset] != needle[offset] { return false }
        return true
    }

    /// Whether a match may begin or end at byte `offset`: not before a combining scalar.
    static func isBoundary(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Bool {
        guard offset < bytes.count, bytes[offset] >= 0x80 else { return true }
        guard let scalar = decodeScalar(bytes, at: offset) else { return true }
        return !isCombining(scalar)
    }

    /// Marks (Mn, Mc, Me), other grapheme extenders and ZWJ continue the character before them.
    static func isCombining(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x300 { return false }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return properties.isGraphemeExtend || scalar.value == 0x200D
        }
    }

    private static func decodeScalar(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Unicode.Scalar? {
        let lead = bytes[offset]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        guard offset + length <= bytes.count else { return nil }
        var value = UInt32(lead) & (length == 4 ? 0x07 : length == 3 ? 0x0F : 0x1F)
        for index in 1..<max(length, 1) { value = value << 6 | UInt32(bytes[offset + index] & 0x3F) }
        return Unicode.Scalar(value)
    }
}
