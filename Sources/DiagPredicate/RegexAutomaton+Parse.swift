import Foundation

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
