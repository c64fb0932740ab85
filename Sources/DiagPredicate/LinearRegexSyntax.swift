/// The syntax tree of a `MATCHES` pattern as the linear engine reads it (`LinearRegexParser`):
/// only what decides whether the whole string matches. Captures are gone (a group is its
/// contents), laziness is gone (it changes which match is found, never whether one exists).
indirect enum LinearRegexNode: Equatable {
    /// Matches the empty string.
    case empty
    /// One scalar of the class.
    case scalar(LinearRegexClass)
    /// ICU's `.` with `.dotMatchesLineSeparators`: one scalar, but CR LF as one (ICU's
    /// DOTANY_ALL steps over both, and its `.*` loop backs up over both at once).
    case dot
    case assertion(LinearRegexAssertion)
    case concatenation([LinearRegexNode])
    case alternation([LinearRegexNode])
    /// `maximum` nil: no upper bound.
    case repetition(LinearRegexNode, minimum: Int, maximum: Int?)
}

/// The zero-width tests, as ICU runs them with `.anchorsMatchLines` (UREGEX_MULTILINE).
enum LinearRegexAssertion: Equatable {
    /// `^`: the start, or after a line terminator unless at the end (between CR and LF too).
    case lineStart
    /// `$`: the end, or before a line terminator, but not between CR and LF.
    case lineEnd
    /// `\A`
    case textStart
    /// `\z`
    case textEnd
    /// `\Z`: the end, or before a line terminator that ends the text (CR LF counted as one).
    case textEndOrFinalTerminator
    /// `\b`, `\B`: ICU's rule, which skips combining marks and format characters.
    case wordBoundary
    case notWordBoundary
}

/// A set of scalars: ranges and the `\d \w \s` families, possibly negated; with `[c]`
/// (`caseInsensitive`) a scalar belongs when any scalar of its case-fold class does, before
/// negation, as ICU closes a set over case before complementing it.
struct LinearRegexClass: Equatable {
    enum Item: Equatable {
        case range(UInt32, UInt32)
        case digit(negated: Bool)
        case word(negated: Bool)
        case space(negated: Bool)
    }

    var items: [Item]
    var negated: Bool
    var caseInsensitive: Bool

    static func literal(_ scalar: UInt32, caseInsensitive: Bool) -> LinearRegexClass {
        LinearRegexClass(items: [.range(scalar, scalar)], negated: false, caseInsensitive: caseInsensitive)
    }

    func contains(_ scalar: UInt32) -> Bool {
        var found = itemsContain(scalar)
        if !found, caseInsensitive {
            found = LinearRegexCaseFolding.equivalents(of: scalar).contains { $0 != scalar && itemsContain($0) }
        }
        return found != negated
    }

    private func itemsContain(_ scalar: UInt32) -> Bool {
        for item in items {
            switch item {
            case .range(let low, let high): if scalar >= low && scalar <= high { return true }
            case .digit(let negated): if LinearRegexProperties.isDigit(scalar) != negated { return true }
            case .word(let negated): if LinearRegexProperties.isWord(scalar) != negated { return true }
            case .space(let negated): if LinearRegexProperties.isSpace(scalar) != negated { return true }
            }
        }
        return false
    }
}

/// ICU's definitions of the class escapes (uregex's static sets), on Swift's Unicode tables.
enum LinearRegexProperties {
    /// `\d`: `\p{Nd}`.
    static func isDigit(_ scalar: UInt32) -> Bool {
        if scalar < 0x80 { return scalar >= 0x30 && scalar <= 0x39 }
        return Unicode.Scalar(scalar)?.properties.generalCategory == .decimalNumber
    }

    /// `\w`: `[\p{Alphabetic}\p{Mark}\p{Nd}\p{Pc}\u200C\u200D]`.
    static func isWord(_ scalar: UInt32) -> Bool {
        if scalar < 0x80 {
            return (scalar >= 0x30 && scalar <= 0x39) || (scalar | 0x20 >= 0x61 && scalar | 0x20 <= 0x7A) || scalar == 0x5F
        }
        if scalar == 0x200C || scalar == 0x200D { return true }
        guard let properties = Unicode.Scalar(scalar)?.properties else { return false }
        if properties.isAlphabetic { return true }
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation: return true
        default: return false
        }
    }

    /// `\s`: `\p{White_Space}` (U+000B and U+0085 included, U+200B not).
    static func isSpace(_ scalar: UInt32) -> Bool {
        if scalar < 0x80 { return (scalar >= 0x09 && scalar <= 0x0D) || scalar == 0x20 }
        return Unicode.Scalar(scalar)?.properties.isWhitespace ?? false
    }

    /// What `\b` skips over when it looks for the characters around a position.
    static func isExtendOrFormat(_ scalar: UInt32) -> Bool {
        guard scalar >= 0x80, let properties = Unicode.Scalar(scalar)?.properties else { return false }
        return properties.isGraphemeExtend || properties.generalCategory == .format
    }

    /// ICU's line terminators for `^` and `$` in multi-line mode.
    static func isLineTerminator(_ scalar: UInt32) -> Bool {
        (scalar >= 0x0A && scalar <= 0x0D) || scalar == 0x85 || scalar == 0x2028 || scalar == 0x2029
    }
}
