import Foundation

/// A whole-string matcher for the common kind of `MATCHES` pattern: a sequence of
/// one-character atoms (literals, `.`, `\d`-style classes, `[…]` sets), each with an optional
/// quantifier (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, greedy or lazy), run as a bit-parallel
/// automaton over the bytes of ASCII text, about a hundred times faster than ICU through
/// NSRegularExpression.
///
/// It gives NSRegularExpression's answer by construction: which ASCII characters each atom
/// accepts is asked of NSRegularExpression itself, with the matcher's own options, when the
/// automaton is built; a sequence of one-character atoms matches a string exactly when some
/// split of the string gives each atom one accepted character (or none, or several, as its
/// quantifier allows), which is what the automaton tracks; laziness does not change whether a
/// whole-string match exists. What it cannot decide it leaves to the caller: `matches` returns
/// nil for text that is not ASCII, or holds a carriage return (ICU's `.` takes CR LF as one
/// character), and `init` fails for every other construct (groups, alternation, anchors,
/// backreferences, possessive quantifiers, `\Q`, `\x`, …) and for more than 63 positions.
struct RegexAutomaton: Sendable {
    /// Bit p: the element after position p accepts the byte.
    private let accepts: [UInt64]
    /// Bit p: the element after position p is taken once at most (exactly once or optionally).
    private let advances: UInt64
    /// Bit p: the element after position p repeats (`*`).
    private let repeats: UInt64
    /// Bit p: the element after position p may be skipped (`?`, `*`).
    private let skippable: UInt64
    private let final: UInt64
    private let start: UInt64

    private enum Count { case once, optional, star }

    init?(pattern: String, options: NSRegularExpression.Options) {
        guard let elements = Self.parse(pattern, caseInsensitive: options.contains(.caseInsensitive)) else { return nil }
        var expanded: [(atom: String, count: Count)] = []
        for element in elements {
            for _ in 0..<element.minimum { expanded.append((element.atom, .once)) }
            if let maximum = element.maximum {
                for _ in element.minimum..<maximum { expanded.append((element.atom, .optional)) }
            } else {
                expanded.append((element.atom, .star))
            }
            guard expanded.count <= 63 else { return nil }
        }
        var accepts = [UInt64](repeating: 0, count: 128)
        var advances: UInt64 = 0, repeats: UInt64 = 0, skippable: UInt64 = 0
        var tables: [String: [Bool]] = [:]
        for (position, element) in expanded.enumerated() {
            let bit: UInt64 = 1 << UInt64(position)
            if tables[element.atom] == nil {
                guard let table = Self.asciiTable(element.atom, options: options) else { return nil }
                tables[element.atom] = table
            }
            for byte in 0..<128 where tables[element.atom]![byte] { accepts[byte] |= bit }
            switch element.count {
            case .once: advances |= bit
            case .optional: advances |= bit; skippable |= bit
            case .star: repeats |= bit; skippable |= bit
            }
        }
        self.accepts = accepts
        self.advances = advances
        self.repeats = repeats
        self.skippable = skippable
        final = 1 << UInt64(expanded.count)
        start = Self.closure(1, skippable: skippable)
    }

    /// Whether the whole of `text` matches; nil when the text is not ASCII or holds a CR.
    func matches(_ text: UnsafeBufferPointer<UInt8>) -> Bool? {
        var state = start
        for byte in text {
            guard byte < 0x80, byte != 0x0D else { return nil }
            let taken = state & accepts[Int(byte)]
            state = Self.closure(((taken & advances) << 1) | (taken & repeats), skippable: skippable)
            if state == 0 {
                // No position is alive; the rest only needs checking for what we cannot decide.
                for rest in text where rest >= 0x80 || rest == 0x0D { return nil }
                return false
            }
        }
        return state & final != 0
    }

    @inline(__always)
    private static func closure(_ state: UInt64, skippable: UInt64) -> UInt64 {
        var state = state
        while true {
            let next = state | ((state & skippable) << 1)
            if next == state { return state }
            state = next
        }
    }

    /// Which ASCII characters the atom matches alone, as NSRegularExpression says; nil when it
    /// cannot be compiled alone.
    private static func asciiTable(_ atom: String, options: NSRegularExpression.Options) -> [Bool]? {
        guard let expression = try? NSRegularExpression(pattern: "\\A(?:" + atom + ")\\z", options: options) else { return nil }
        return (0..<128).map { code in
            let text = String(UnicodeScalar(UInt8(code)))
            return expression.firstMatch(in: text, options: [], range: NSRange(location: 0, length: 1)) != nil
        }
    }
}

extension RegexAutomaton {
    struct Element {
        var atom: String
        var minimum: Int
        var maximum: Int?
    }

    /// The pattern as atoms with counts; nil for anything outside the supported kind. With
    /// `caseInsensitive`, only ASCII patterns (ICU folds non-ASCII literals to several characters).
    static func parse(_ pattern: String, caseInsensitive: Bool) -> [Element]? {
        let scalars = Array(pattern.unicodeScalars)
        if caseInsensitive, !scalars.allSatisfy(\.isASCII) { return nil }
        var elements: [Element] = []
        var index = 0
        while index < scalars.count {
            guard let (atom, next) = atom(scalars, at: index) else { return nil }
            index = next
            var element = Element(atom: atom, minimum: 1, maximum: 1)
            if index < scalars.count, let (minimum, maximum, after) = quantifier(scalars, at: index) {
                element.minimum = minimum
                element.maximum = maximum
                index = after
                if index < scalars.count, scalars[index] == "?" { index += 1 }  // lazy: same language
                if index < scalars.count, "+*?{".unicodeScalars.contains(scalars[index]) { return nil }
            }
            elements.append(element)
        }
        return elements
    }

    /// One atom starting at `index` and the index after it.
    private static func atom(_ scalars: [Unicode.Scalar], at index: Int) -> (String, Int)? {
        let scalar = scalars[index]
        switch scalar {
        case ".":
            return (".", index + 1)
        case "\\":
            guard index + 1 < scalars.count else { return nil }
            let escaped = scalars[index + 1]
            if "dDwWsStnrfae".unicodeScalars.contains(escaped) || (escaped.isASCII && !isAlphanumeric(escaped) && escaped.value >= 0x21 && escaped.value < 0x7F) {
                return ("\\" + String(escaped), index + 2)
            }
            return nil
        case "[":
            guard let end = setEnd(scalars, from: index) else { return nil }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars[index..<end])
            return (String(text), end)
        case "^", "$", "|", "(", ")", "]", "{", "}", "*", "+", "?", "#":
            return nil
        default:
            guard scalar.value >= 0x20, scalar.value != 0x7F else { return nil }
            return (String(scalar), index + 1)
        }
    }

    /// The index after the `]` closing the set at `start`. Sets holding `\Q`, `\E`, `\N`, `\x`,
    /// `\u`, `\U`, `\0`, a `[` of their own, a `&&`, `--`, `:` or `$` are refused: only flat sets.
    private static func setEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start + 1
        if index < scalars.count, scalars[index] == "^" { index += 1 }
        guard index < scalars.count, scalars[index] != "]" else { return nil }
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "]": return index + 1
            case "[", "&", ":", "$", "{", "}": return nil
            case "-":
                if index + 1 < scalars.count, scalars[index + 1] == "-" { return nil }
            case "\\":
                guard index + 1 < scalars.count else { return nil }
                let escaped = scalars[index + 1]
                guard "dDwWsStnrf".unicodeScalars.contains(escaped) || (escaped.isASCII && !isAlphanumeric(escaped) && escaped.value >= 0x21) else { return nil }
                index += 1
            default:
                guard scalar.value >= 0x20, scalar.value != 0x7F else { return nil }
            }
            index += 1
        }
        return nil
    }

    /// `*`, `+`, `?`, `{n}`, `{n,}` or `{n,m}` at `index`: its counts and the index after it.
    private static func quantifier(_ scalars: [Unicode.Scalar], at index: Int) -> (Int, Int?, Int)? {
        switch scalars[index] {
        case "*": return (0, nil, index + 1)
        case "+": return (1, nil, index + 1)
        case "?": return (0, 1, index + 1)
        case "{":
            var cursor = index + 1
            func number() -> Int? {
                var value = 0, digits = 0
                while cursor < scalars.count, let digit = Int(String(scalars[cursor])), scalars[cursor].isASCII {
                    value = value * 10 + digit
                    digits += 1
                    cursor += 1
                    if value > 64 { return nil }
                }
                return digits == 0 ? nil : value
            }
            guard let minimum = number(), cursor < scalars.count else { return nil }
            var maximum: Int? = minimum
            if scalars[cursor] == "," {
                cursor += 1
                maximum = cursor < scalars.count && scalars[cursor] == "}" ? nil : number()
                guard maximum != nil || (cursor < scalars.count && scalars[cursor] == "}") else { return nil }
            }
            guard cursor < scalars.count, scalars[cursor] == "}" else { return nil }
            if let maximum, maximum < minimum { return nil }
            return (minimum, maximum, cursor + 1)
        default:
            return nil
        }
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": true
        default: false
        }
    }
}
