/// Sizes and ages as diagd's options take them: `500M`, `2G`, `4096`; `30m`, `12h`, `7d`.
public enum QuantityParsing {
    /// Bytes from a number with an optional K, M, G or T suffix (powers of 1024; `B`/`iB` allowed).
    public static func byteCount(_ text: String) -> Int64? {
        var digits = Substring(text.uppercased())
        for suffix in ["IB", "B"] where digits.hasSuffix(suffix) && digits.count > suffix.count {
            digits = digits.dropLast(suffix.count)
            break
        }
        var multiplier: Int64 = 1
        if let last = digits.last, let power = "KMGT".firstIndex(of: last) {
            multiplier = 1 << (10 * ("KMGT".distance(from: "KMGT".startIndex, to: power) + 1))
            digits = digits.dropLast()
        }
        guard let value = Int64(digits), value > 0 else { return nil }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : bytes
    }

    /// Seconds from a number with a unit: s, m, h or d (a bare number is seconds).
    public static func seconds(_ text: String) -> Int64? {
        guard let last = text.last else { return nil }
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        let (digits, unit) = units[last].map { (text.dropLast(), $0) } ?? (Substring(text), 1)
        guard let value = Int64(digits), value > 0 else { return nil }
        let (total, overflow) = value.multipliedReportingOverflow(by: unit)
        return overflow ? nil : total
    }
}
