import DiagModel

/// Case- and diacritic-insensitive matching against a needle folded once at parse time.
///
/// ASCII text has no diacritics and folds to its lowercase, so it is compared in place, byte by
/// byte, without building a folded copy: nearly every log message takes this path.
extension StringSearch {
    static func foldedMatch(_ text: String, _ needle: String, _ op: ComparisonOperator, _ folding: Folding) -> Bool {
        var text = text, needle = needle
        let inPlace = text.withUTF8 { haystack in
            needle.withUTF8 { needle in matchInPlace(haystack, needle, op, lowercasing: folding.caseInsensitive) }
        }
        if let inPlace { return inPlace }
        let folded = folding.apply(text)
        switch op {
        case .equal: return equal(folded, needle)
        case .notEqual: return !equal(folded, needle)
        case .contains: return contains(folded, needle)
        case .beginsWith: return hasPrefix(folded, needle)
        case .endsWith: return hasSuffix(folded, needle)
        default: return false
        }
    }

    /// The answer on the text's bytes, without a folded copy, when they decide it: ASCII text
    /// compared in place; a `CONTAINS` of an ASCII needle found among the ASCII bytes of other
    /// text (`asciiNeedleFound`). Nil when the text must be folded. `needle` is folded already.
    static func matchInPlace(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>, _ op: ComparisonOperator,
                             lowercasing: Bool) -> Bool? {
        if UTF8Validation.isASCII(haystack) { return asciiMatch(haystack, needle, op, lowercasing: lowercasing) }
        if op == .contains, asciiNeedleFound(haystack, needle, lowercasing: lowercasing) { return true }
        return nil
    }

    @inline(__always)
    private static func lower(_ byte: UInt8, _ lowercasing: Bool) -> UInt8 {
        lowercasing && byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }

    private static func asciiMatch(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>, _ op: ComparisonOperator, lowercasing: Bool) -> Bool {
        func matchesAt(_ start: Int) -> Bool {
            for offset in 0..<needle.count where lower(haystack[start + offset], lowercasing) != needle[offset] { return false }
            return true
        }
        switch op {
        case .equal: return haystack.count == needle.count && matchesAt(0)
        case .notEqual: return !(haystack.count == needle.count && matchesAt(0))
        case .beginsWith: return !needle.isEmpty && needle.count <= haystack.count && matchesAt(0)
        case .endsWith: return !needle.isEmpty && needle.count <= haystack.count && matchesAt(haystack.count - needle.count)
        case .contains: return asciiContains(haystack, needle, lowercasing: lowercasing)
        default: return false
        }
    }

    /// Whether an ASCII `needle` (folded already) occurs among `haystack`'s ASCII bytes, those
    /// lowered when `lowercasing`, followed by an ASCII byte or the end. Then the folded text
    /// contains it too, whatever the text's other characters: folding is local between ASCII
    /// characters (`TextFolding.foldByRuns`), so those bytes stand in the folded text as they
    /// are, and a match may end there since no combining scalar follows (`contains`). False
    /// says nothing: a character outside ASCII may fold into the needle (`ﬁ`, the Kelvin sign),
    /// and a match that a combining mark follows is no match; the text must then be folded.
    /// A log line with one `…` or `é` is thus searched in place, without a folded copy.
    static func asciiNeedleFound(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>, lowercasing: Bool) -> Bool {
        guard let first = needle.first, first != 0, needle.allSatisfy({ $0 < 0x80 && $0 != 0 }) else { return false }
        return firstMatch(haystack, needle, lowercasing: lowercasing) { end in end == haystack.count || haystack[end] < 0x80 }
    }

    /// Whether `needle` occurs in `haystack`, comparing the haystack's ASCII letters lowered
    /// when `lowercasing`; bytes at or above 0x80 compare as they are.
    static func asciiContains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>, lowercasing: Bool) -> Bool {
        firstMatch(haystack, needle, lowercasing: lowercasing) { _ in true }
    }

    /// Whether `needle` occurs in `haystack` (its ASCII letters lowered when `lowercasing`) at a
    /// place whose end `accept` takes. A haystack byte of 0x80 or above equals no ASCII byte.
    @inline(__always)
    private static func firstMatch(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>, lowercasing: Bool,
                                   accept: (Int) -> Bool) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return false }
        var start = 0
        let last = haystack.count - needle.count
        outer: while start <= last {
            if lower(haystack[start], lowercasing) == first {
                for offset in 1..<needle.count where lower(haystack[start + offset], lowercasing) != needle[offset] {
                    start += 1
                    continue outer
                }
                if accept(start + needle.count) { return true }
            }
            start += 1
        }
        return false
    }
}
