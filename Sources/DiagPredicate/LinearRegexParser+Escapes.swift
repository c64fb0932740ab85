/// Escapes and bracketed sets, for `LinearRegexParser`.
extension LinearRegexParser {
    /// What an escape stands for: one scalar, a class, or (outside sets) an assertion.
    enum Escaped {
        case scalar(UInt32)
        case item(LinearRegexClass.Item)
        case assertion(LinearRegexAssertion)
    }

    /// The escape after a `\` (the index is past it); nil for escapes left to ICU.
    mutating func escaped(inSet: Bool) -> Escaped? {
        guard let scalar = current else { return nil }
        index += 1
        switch scalar {
        case "n": return .scalar(0x0A)
        case "t": return .scalar(0x09)
        case "r": return .scalar(0x0D)
        case "f": return .scalar(0x0C)
        case "a": return .scalar(0x07)
        case "e": return .scalar(0x1B)
        case "d", "D": return .item(.digit(negated: scalar == "D"))
        case "w", "W": return .item(.word(negated: scalar == "W"))
        case "s", "S": return .item(.space(negated: scalar == "S"))
        case "b", "B": return inSet ? nil : .assertion(scalar == "b" ? .wordBoundary : .notWordBoundary)
        case "A": return inSet ? nil : .assertion(.textStart)
        case "z": return inSet ? nil : .assertion(.textEnd)
        case "Z": return inSet ? nil : .assertion(.textEndOrFinalTerminator)
        case "u": return hex(digits: 4).map(Escaped.scalar)
        case "U": return hex(digits: 8).map(Escaped.scalar)
        case "x":
            if current == "{" {
                index += 1
                guard let value = hex(digits: nil), current == "}" else { return nil }
                index += 1
                return .scalar(value)
            }
            return hex(digits: 2).map(Escaped.scalar)
        case "0":
            var value: UInt32 = 0
            for _ in 0..<3 {
                guard let digit = current, ("0"..."7").contains(digit) else { break }
                value = value * 8 + digit.value - 0x30
                index += 1
            }
            return .scalar(value)
        default:
            // Any other ASCII punctuation stands for itself; letters and digits mean something
            // else to ICU (or are errors), and are refused.
            guard scalar.value >= 0x21, scalar.value < 0x7F, !isAlphanumeric(scalar) else { return nil }
            return .scalar(scalar.value)
        }
    }

    private func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    /// Exactly `digits` hex digits, or (nil) one to eight; a valid scalar value only.
    private mutating func hex(digits: Int?) -> UInt32? {
        var value: UInt32 = 0, count = 0
        while let scalar = current, let digit = Self.hexValue(scalar), count < (digits ?? 8) {
            value = value * 16 + digit
            count += 1
            index += 1
        }
        guard count > 0, digits == nil || count == digits else { return nil }
        guard value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return nil }
        return value
    }

    private static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": return scalar.value - 0x30
        case "a"..."f": return scalar.value - 0x61 + 10
        case "A"..."F": return scalar.value - 0x41 + 10
        default: return nil
        }
    }

    mutating func escape() -> LinearRegexNode? {
        switch escaped(inSet: false) {
        case .scalar(let value)?:
            if caseInsensitive, LinearRegexCaseFolding.hasMultiScalarFolding(value) { return nil }
            return .scalar(.literal(value, caseInsensitive: caseInsensitive))
        case .item(let item)?: return .scalar(LinearRegexClass(items: [item], negated: false, caseInsensitive: caseInsensitive))
        case .assertion(let assertion)?: return .assertion(assertion)
        case nil: return nil
        }
    }

    /// A flat set after its `[`: single scalars, ranges and class escapes. Nested sets, POSIX
    /// classes, `&&`/`--` operations, `\p`, and `$ { } &` (which ICU's set syntax may read
    /// otherwise) are refused.
    mutating func set() -> LinearRegexNode? {
        var items: [LinearRegexClass.Item] = []
        var negated = false
        if current == "^" {
            negated = true
            index += 1
        }
        if current == ":" { return nil }
        var first = true
        while let scalar = current {
            if scalar == "]", !first {
                index += 1
                return .scalar(LinearRegexClass(items: items, negated: negated, caseInsensitive: caseInsensitive))
            }
            first = false
            guard let low = setMember() else { return nil }
            switch low {
            case .item(let item):
                if current == "-", index + 1 < scalars.count, scalars[index + 1] != "]" { return nil }
                items.append(item)
            case .scalar(let value):
                if current == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
                    index += 1
                    guard case .scalar(let high)? = setMember(), high >= value else { return nil }
                    items.append(.range(value, high))
                } else {
                    items.append(.range(value, value))
                }
            case .assertion:
                return nil
            }
        }
        return nil
    }

    private mutating func setMember() -> Escaped? {
        guard let scalar = current else { return nil }
        switch scalar {
        case "\\":
            index += 1
            return escaped(inSet: true)
        case "[", "&", "$", "{", "}":
            return nil
        case "-":
            // A `-` is literal first or last; `--` is set difference.
            if index + 1 < scalars.count, scalars[index + 1] == "-" { return nil }
            index += 1
            return .scalar(scalar.value)
        default:
            index += 1
            return .scalar(scalar.value)
        }
    }
}
