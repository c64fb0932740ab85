/// Reads a `MATCHES` pattern into a `LinearRegexNode` when every construct in it is one the
/// linear engine runs exactly as ICU does; nil otherwise, and the pattern stays ICU's
/// (backreferences, lookaround, atomic groups and possessive quantifiers, inline flags,
/// `\p{…}` and `\N{…}`, POSIX and nested sets, set operations, `\X`, `\R`, `\h`, `\v`, `\G`,
/// `\c`, comments). The pattern has already compiled in ICU, so what is malformed for ICU never
/// reaches here as a question; anything this parser is unsure of is refused rather than guessed.
struct LinearRegexParser {
    let scalars: [Unicode.Scalar]
    var index = 0
    let caseInsensitive: Bool

    static func parse(_ pattern: String, caseInsensitive: Bool) -> LinearRegexNode? {
        var parser = LinearRegexParser(scalars: Array(pattern.unicodeScalars), caseInsensitive: caseInsensitive)
        guard let node = parser.alternation(), parser.index == parser.scalars.count else { return nil }
        return node
    }

    private init(scalars: [Unicode.Scalar], caseInsensitive: Bool) {
        self.scalars = scalars
        self.caseInsensitive = caseInsensitive
    }

    var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private mutating func alternation() -> LinearRegexNode? {
        var branches: [LinearRegexNode] = []
        while true {
            guard let branch = concatenation() else { return nil }
            branches.append(branch)
            guard current == "|" else { break }
            index += 1
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func concatenation() -> LinearRegexNode? {
        var items: [LinearRegexNode] = []
        while let scalar = current, scalar != "|", scalar != ")" {
            if scalar == "\\", index + 1 < scalars.count, scalars[index + 1] == "Q" {
                guard quoted(into: &items) else { return nil }
                continue
            }
            guard let atom = atom() else { return nil }
            guard let quantified = quantified(atom) else { return nil }
            items.append(quantified)
        }
        switch items.count {
        case 0: return .empty
        case 1: return items[0]
        default: return .concatenation(items)
        }
    }

    /// `\Q…\E`: every scalar up to `\E` (or the end) literally; a quantifier after it applies to
    /// its last scalar, as ICU reads it.
    private mutating func quoted(into items: inout [LinearRegexNode]) -> Bool {
        index += 2
        var literals: [LinearRegexNode] = []
        while let scalar = current {
            if scalar == "\\", index + 1 < scalars.count, scalars[index + 1] == "E" {
                index += 2
                break
            }
            guard let literal = literal(scalar.value) else { return false }
            literals.append(literal)
            index += 1
        }
        guard let last = literals.popLast() else { return !isQuantifier(current) }
        items.append(contentsOf: literals)
        guard let quantified = quantified(last) else { return false }
        items.append(quantified)
        return true
    }

    private func isQuantifier(_ scalar: Unicode.Scalar?) -> Bool {
        scalar == "*" || scalar == "+" || scalar == "?" || scalar == "{"
    }

    private func literal(_ value: UInt32) -> LinearRegexNode? {
        if caseInsensitive, LinearRegexCaseFolding.hasMultiScalarFolding(value) { return nil }
        return .scalar(.literal(value, caseInsensitive: caseInsensitive))
    }

    private mutating func atom() -> LinearRegexNode? {
        guard let scalar = current else { return nil }
        index += 1
        switch scalar {
        case "(":
            if current == "?" {
                index += 1
                if current == ":" {
                    index += 1
                } else if current == "<", index + 1 < scalars.count, isLetter(scalars[index + 1]) {
                    index += 1
                    while let name = current, isLetter(name) || ("0"..."9").contains(name) { index += 1 }
                    guard current == ">" else { return nil }
                    index += 1
                } else {
                    return nil
                }
            }
            guard let inner = alternation(), current == ")" else { return nil }
            index += 1
            return inner
        case "[": return set()
        case ".": return .dot
        case "^": return .assertion(.lineStart)
        case "$": return .assertion(.lineEnd)
        case "\\": return escape()
        case "|", ")", "*", "+", "?", "{", "}": return nil
        default: return literal(scalar.value)
        }
    }

    private func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    /// A quantifier after `atom`, if any; nil for what ICU reads otherwise (possessive `*+`,
    /// a quantifier on a quantifier, a quantified assertion).
    private mutating func quantified(_ atom: LinearRegexNode) -> LinearRegexNode? {
        guard let scalar = current, isQuantifier(scalar) else { return atom }
        if case .assertion = atom { return nil }
        var minimum = 0, maximum: Int?
        index += 1
        switch scalar {
        case "*": break
        case "+": minimum = 1
        case "?": maximum = 1
        default:
            guard let low = number() else { return nil }
            minimum = low
            maximum = low
            if current == "," {
                index += 1
                maximum = current == "}" ? nil : number()
                if maximum == nil, current != "}" { return nil }
            }
            guard current == "}" else { return nil }
            index += 1
            if let maximum, maximum < minimum { return nil }
        }
        if current == "?" { index += 1 }  // lazy: the same yes or no
        if isQuantifier(current) { return nil }
        return .repetition(atom, minimum: minimum, maximum: maximum)
    }

    /// Up to nine decimal digits (ICU refuses larger counts; the program bound refuses far less).
    private mutating func number() -> Int? {
        var value = 0, digits = 0
        while let scalar = current, ("0"..."9").contains(scalar) {
            guard digits < 9 else { return nil }
            value = value * 10 + Int(scalar.value - 0x30)
            digits += 1
            index += 1
        }
        return digits == 0 ? nil : value
    }
}
