import DiagModel

/// The normalised text of a predicate (`diag predicate check`): parsing it gives the same predicate.
extension PredicateNode: CustomStringConvertible {
    var description: String { text(absoluteDates: false) }

    /// The normalised text; with `absoluteDates`, each date literal is written as the instant it
    /// was read as (`"2026-12-01T17:17:22.000000000Z"`), so that a reader in another zone (diagd
    /// for `diag stream`) reads the same instants.
    func text(absoluteDates: Bool) -> String {
        switch self {
        case .constant(let value): return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .not(let child):
            let inner = child.text(absoluteDates: absoluteDates)
            if case .comparison = child { return "NOT " + inner }
            if case .constant = child { return "NOT " + inner }
            if case .not = child { return "NOT " + inner }
            return "NOT (" + inner + ")"
        case .and(let children):
            return children.map { child in
                if case .or = child { return "(" + child.text(absoluteDates: absoluteDates) + ")" }
                return child.text(absoluteDates: absoluteDates)
            }.joined(separator: " AND ")
        case .or(let children):
            return children.map { $0.text(absoluteDates: absoluteDates) }.joined(separator: " OR ")
        case .comparison(let comparison):
            return comparison.text(absoluteDates: absoluteDates)
        }
    }
}

extension Comparison: CustomStringConvertible {
    var description: String { text(absoluteDates: false) }

    func text(absoluteDates: Bool) -> String {
        var text = qualifier.map { $0.rawValue + " " } ?? ""
        text += left.text(absoluteDates: absoluteDates) + " " + op.spelling + options.spelling + " " + right.text(absoluteDates: absoluteDates)
        return text
    }
}

extension Operand: CustomStringConvertible {
    var description: String { text(absoluteDates: false) }

    func text(absoluteDates: Bool) -> String {
        switch self {
        case .field(_, let spelling): return spelling
        case .literal(let literal):
            if absoluteDates, case .date(let nanoseconds) = literal.value {
                return Value.quoted(Timestamp.formatISO8601(nanoseconds: nanoseconds, fractionDigits: 9))
            }
            return literal.source.literalText
        case .aggregate(let elements): return "{" + elements.map { $0.text(absoluteDates: absoluteDates) }.joined(separator: ", ") + "}"
        case .record: return "SELF"
        }
    }
}

extension Value {
    /// The value written as a literal of the predicate language.
    var literalText: String {
        switch self {
        case .null: return "NULL"
        case .int(let number): return String(number)
        case .double(let number): return "\(number)"
        case .bool(let flag): return flag ? "TRUE" : "FALSE"
        case .string(let text): return Self.quoted(text)
        case .date(let nanoseconds): return Self.quoted(String(nanoseconds))
        case .invalidDate, .opaque, .recordTypes: return "NULL"
        case .symbol(let kind, let code): return kind.name(of: code) ?? String(code)
        case .aggregate(let elements): return "{" + elements.map(\.literalText).joined(separator: ", ") + "}"
        case .record: return "SELF"
        }
    }

    /// A double-quoted literal whose escapes read back to exactly `text`.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\x" + (hex.count < 2 ? "0" : "") + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
