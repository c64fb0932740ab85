import DiagModel
// The stdlib's Unicode SPI gives full default case folding (`_caseFolded`), as TextFolding uses.
@_spi(_Unicode) import Swift

/// Case-insensitive matching for the linear engine (`[c]`), as ICU's UREGEX_CASE_INSENSITIVE
/// does it for one character: two scalars are equal when their case foldings are (`K`, `k` and
/// the Kelvin sign; `Σ`, `σ` and `ς`). ICU folds literal *strings* fully, so that `ß` matches
/// `ss`; the scalars whose folding is several scalars (`multiScalarFoldings`) are therefore left
/// to ICU, in the pattern and in the text (RegexMatcher).
enum LinearRegexCaseFolding {
    private struct Tables: Sendable {
        /// Scalar → its folding, where that is one other scalar.
        var folding: [UInt32: UInt32] = [:]
        /// Folding → the scalars that fold to it (itself not included).
        var folded: [UInt32: [UInt32]] = [:]
        var multiScalar: Set<UInt32> = []
    }

    /// Built on first use, from the planes that hold every cased letter (0 and 1); a few
    /// milliseconds, paid only by `[c]` patterns.
    private static let tables: Tables = {
        var tables = Tables()
        for value in UInt32(0)..<0x20000 {
            guard let scalar = Unicode.Scalar(value), scalar.properties.changesWhenCaseFolded else { continue }
            let mapping = Array(scalar.properties._caseFolded.unicodeScalars)
            if mapping.count == 1 {
                let target = mapping[0].value
                tables.folding[value] = target
                tables.folded[target, default: []].append(value)
            } else {
                tables.multiScalar.insert(value)
            }
        }
        return tables
    }()

    /// The scalar's case-fold class: itself, its folding, and everything else that folds to it.
    static func equivalents(of scalar: UInt32) -> [UInt32] {
        let tables = Self.tables
        let target = tables.folding[scalar] ?? scalar
        var result = [scalar]
        if target != scalar { result.append(target) }
        for other in tables.folded[target] ?? [] where other != scalar { result.append(other) }
        return result
    }

    /// Whether the scalar folds to several scalars (`ß`, `ﬁ`, `İ`, `ŉ`, …).
    static func hasMultiScalarFolding(_ scalar: UInt32) -> Bool {
        scalar >= 0x80 && tables.multiScalar.contains(scalar)
    }

    /// Whether text (valid UTF-8) holds a scalar that folds to several: ASCII text never does.
    static func holdsMultiScalarFolding(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !UTF8Validation.isASCII(text) else { return false }
        return String(decoding: text, as: UTF8.self).unicodeScalars.contains { hasMultiScalarFolding($0.value) }
    }
}
