/// The ASCII literal runs every match of a regular expression must contain, read conservatively
/// from the pattern: `.*token [0-9]+ bytes.*` needs "token " and " bytes".
///
/// Anything not understood for certain (alternation at the top level, inline flags, `\Q`,
/// numeric escapes) gives no runs, so the prefilter can only ever skip records that cannot match.
enum RegexLiteralRuns {
    static func required(_ pattern: String) -> [String] {
        if pattern.contains("(?") || pattern.contains("\\Q") || pattern.contains("\\E") { return [] }
        let scalars = Array(pattern.unicodeScalars)
        var runs: [String] = []
        var current = String.UnicodeScalarView()
        func flush() {
            if !current.isEmpty { runs.append(String(current)) }
            current = String.UnicodeScalarView()
        }
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "\\":
                guard index + 1 < scalars.count else { return [] }
                let escaped = scalars[index + 1]
                index += 2
                if escaped.isASCII, !isAlphanumeric(escaped) {
                    if isRunScalar(escaped) { current.append(escaped) } else { flush() }
                } else if "xuUNpPkc0123456789".unicodeScalars.contains(escaped) || !escaped.isASCII {
                    // Escapes that spell a character or a set with more text: not worth reading.
                    return []
                } else {
                    flush()  // \d \w \s \b \n …: a class or an assertion
                }
                continue
            case "[":
                flush()
                // `[]…]` and `[^]…]`: whether `]` is literal there is engine lore; give up.
                let first = index + 1 < scalars.count ? scalars[index + 1] : "]"
                if first == "]" || (first == "^" && index + 2 < scalars.count && scalars[index + 2] == "]") { return [] }
                guard let end = skip(from: index, open: "[", close: "]", in: scalars) else { return [] }
                index = end
                continue
            case "(":
                flush()
                guard let end = skip(from: index, open: "(", close: ")", in: scalars) else { return [] }
                index = end
                continue
            case ")", "|":
                return []
            case "*", "?":
                // The element before is optional.
                if !current.isEmpty { current.removeLast() }
                flush()
            case "{":
                if !current.isEmpty { current.removeLast() }
                flush()
                guard let close = scalars[index...].firstIndex(of: "}") else { return [] }
                index = close + 1
                continue
            case "+", ".", "^", "$":
                flush()
            default:
                if isRunScalar(scalar) { current.append(scalar) } else { flush() }
            }
            index += 1
        }
        flush()
        return runs
    }

    /// Non-ASCII and control characters end a run: their case-insensitive matches are not simple.
    private static func isRunScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && scalar.value >= 0x20 && scalar.value != 0x7F
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": true
        default: false
        }
    }

    /// The index after the bracket that closes the one at `start`, skipping escapes and nested
    /// brackets; nil when it is never closed.
    private static func skip(from start: Int, open: Unicode.Scalar, close: Unicode.Scalar, in scalars: [Unicode.Scalar]) -> Int? {
        var depth = 0
        var index = start
        while index < scalars.count {
            switch scalars[index] {
            case "\\": index += 1
            case open: depth += 1
            case close:
                depth -= 1
                if depth == 0 { return index + 1 }
            default: break
            }
            index += 1
        }
        return nil
    }
}
