import DiagModel

/// What an operand evaluates to for one record (PREDICATES.md §4).
enum Value: Sendable, Hashable {
    /// A missing field, JSON `null`, `NULL`/`NIL`.
    case null
    case int(Int64)
    case double(Double)
    /// `TRUE`/`YES`, `FALSE`/`NO`, JSON booleans: compared as 1 and 0.
    case bool(Bool)
    case string(String)
    /// Nanoseconds since the epoch.
    case date(Int64)
    /// A string literal compared with a date field that is not a date: compares false.
    case invalidDate
    case symbol(SymbolKind, Int64)
    /// The `type` key: both codes of the record, one chosen by the other operand.
    case recordTypes(messageType: Int64, eventType: Int64)
    case aggregate([Value])
    /// `SELF`.
    case record
    /// A JSON object in metadata: not null, equal to nothing.
    case opaque

    init(_ json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .int(let number): self = .int(number)
        case .double(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .array(let elements): self = .aggregate(elements.map(Value.init))
        case .object: self = .opaque
        }
    }

    var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The value with its strings folded (§5.3); other values unchanged.
    func folded(_ folding: Folding) -> Value {
        guard folding.isActive else { return self }
        switch self {
        case .string(let text): return .string(folding.apply(text))
        case .aggregate(let elements): return .aggregate(elements.map { $0.folded(folding) })
        default: return self
        }
    }
}

/// Which of the §5.3 foldings a comparison applies to its string operands.
struct Folding: Sendable, Hashable {
    var caseInsensitive = false
    var diacriticInsensitive = false

    var isActive: Bool { caseInsensitive || diacriticInsensitive }

    func apply(_ text: String) -> String {
        TextFolding.fold(text, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive)
    }
}

/// Equality and ordering of values; strings are compared as already folded, by scalars.
enum ValueComparison {
    static func equal(_ lhs: Value, _ rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.string(let a), .string(let b)): return StringSearch.equal(a, b)
        case (.int(let a), .int(let b)): return a == b
        case (.date(let a), .date(let b)): return a == b
        case (.symbol(let k1, let a), .symbol(let k2, let b)): return k1 == k2 && a == b
        case (.symbol(_, let a), .int(let b)), (.int(let b), .symbol(_, let a)): return a == b
        case (.record, .record): return true
        case (.aggregate(let a), .aggregate(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        default: return order(lhs, rhs) == 0
        }
    }

    /// -1, 0, 1, or nil when the values cannot be ordered (nil, type mismatch).
    static func order(_ lhs: Value, _ rhs: Value) -> Int? {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return StringSearch.compare(a, b)
        case (.date(let a), .date(let b)): return a < b ? -1 : a == b ? 0 : 1
        case (.symbol(let k1, let a), .symbol(let k2, let b)):
            guard k1 == k2 else { return nil }
            return a < b ? -1 : a == b ? 0 : 1
        case (.recordTypes(let messageType, let eventType), _):
            return orderRecordTypes(messageType, eventType, rhs, flipped: false)
        case (_, .recordTypes(let messageType, let eventType)):
            return orderRecordTypes(messageType, eventType, lhs, flipped: true)
        case (.symbol(_, let code), _):
            return orderNumbers(.int(code), rhs)
        case (_, .symbol(_, let code)):
            return orderNumbers(lhs, .int(code))
        default:
            return orderNumbers(lhs, rhs)
        }
    }

    private static func orderRecordTypes(_ messageType: Int64, _ eventType: Int64, _ other: Value, flipped: Bool) -> Int? {
        let code: Int64
        switch other {
        case .symbol(.messageType, _): code = messageType
        case .symbol(.eventType, _), .int, .double, .bool: code = eventType
        default: return nil
        }
        let other: Value = if case .symbol(_, let value) = other { .int(value) } else { other }
        return flipped ? orderNumbers(other, .int(code)) : orderNumbers(.int(code), other)
    }

    private static func orderNumbers(_ lhs: Value, _ rhs: Value) -> Int? {
        switch (numeric(lhs), numeric(rhs)) {
        case (.int(let a)?, .int(let b)?): return a < b ? -1 : a == b ? 0 : 1
        case (.double(let a)?, .double(let b)?):
            if a.isNaN || b.isNaN { return nil }
            return a < b ? -1 : a == b ? 0 : 1
        case (.int(let a)?, .double(let b)?): return compare(a, b)
        case (.double(let a)?, .int(let b)?): return compare(b, a).map { -$0 }
        default: return nil
        }
    }

    private static func numeric(_ value: Value) -> Value? {
        switch value {
        case .int, .double: value
        case .bool(let flag): .int(flag ? 1 : 0)
        default: nil
        }
    }

    /// An integer against a double, exactly (no rounding of large integers).
    private static func compare(_ integer: Int64, _ double: Double) -> Int? {
        if double.isNaN { return nil }
        if double >= 9_223_372_036_854_775_808.0 { return -1 }
        if double < -9_223_372_036_854_775_808.0 { return 1 }
        let whole = double.rounded(.down)
        let wholeInteger = Int64(whole)
        if integer < wholeInteger { return -1 }
        if integer > wholeInteger { return 1 }
        return double > whole ? -1 : 0
    }
}
