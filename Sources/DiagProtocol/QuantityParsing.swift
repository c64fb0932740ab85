/// Sizes and durations as every program's options and variables take them: `500M`, `2GiB`,
/// `4096`; `30m`, `12h`, `7d`, `45` (diagd's --max-size/--max-age/--chunk-size, diag collect
/// --size, `--last`, `$DIAG_UNPACK_LIMIT`). One reader, so that the same text means the same
/// quantity everywhere: blanks around it are ignored, suffixes are read in any case, the
/// number is ASCII digits only (no sign, no fraction) and positive, and a result that would not
/// fit in 64 bits is refused rather than wrapped.
public enum QuantityParsing {
    /// What `byteCount` takes, for error messages.
    public static let acceptedSizes = "a positive number of bytes, optionally followed by K, M, G or T (powers of 1024; B or iB may follow), like 4096, 64K, 500M, 2GiB"
    /// What `seconds` takes, for error messages.
    public static let acceptedDurations = "a positive number of seconds, or followed by s, m, h or d, like 45, 30s, 5m, 2h, 1d"

    /// Bytes from a number with an optional K, M, G or T suffix (powers of 1024; `B`/`iB` allowed).
    public static func byteCount(_ text: String) -> Int64? {
        var rest = trimmed(text).uppercased()[...]
        for suffix in ["IB", "B"] where rest.hasSuffix(suffix) && rest.count > suffix.count {
            rest = rest.dropLast(suffix.count)
            break
        }
        let shifts: [Character: Int64] = ["K": 10, "M": 20, "G": 30, "T": 40]
        var shift: Int64 = 0
        if let last = rest.last, let found = shifts[last] {
            shift = found
            rest = rest.dropLast()
        }
        guard let value = positive(rest), value <= Int64.max >> shift else { return nil }
        return value << shift
    }

    /// Seconds from a number with a unit: s, m, h or d (a bare number is seconds).
    public static func seconds(_ text: String) -> Int64? {
        var rest = trimmed(text).lowercased()[...]
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var unit: Int64 = 1
        if let last = rest.last, let found = units[last] {
            unit = found
            rest = rest.dropLast()
        }
        guard let value = positive(rest) else { return nil }
        let (total, overflow) = value.multipliedReportingOverflow(by: unit)
        return overflow ? nil : total
    }

    /// A number of ASCII digits above zero, nil for anything else (a sign, a fraction, too many digits).
    private static func positive(_ digits: Substring) -> Int64? {
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let value = Int64(digits), value > 0
        else { return nil }
        return value
    }

    private static func trimmed(_ text: String) -> Substring {
        var rest = text[...]
        while let first = rest.first, first == " " || first == "\t" { rest.removeFirst() }
        while let last = rest.last, last == " " || last == "\t" { rest.removeLast() }
        return rest
    }
}
