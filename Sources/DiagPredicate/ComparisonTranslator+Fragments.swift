import DiagModel

/// SQL for a column compared with a literal, with the nil and type rules of §4.
enum LiteralSQL {
    /// `column op value`. A nil value is `IS [NOT] NULL`; a value of another type (`accepts` is
    /// false) decides the comparison alone: `==` false, `!=` true, ordering false.
    static func scalar(column: String, op: ComparisonOperator, value: Value, accepts: (Value) -> Bool, index: String?) -> SQLFragment? {
        let indexes = index.map { [$0] } ?? []
        if value.isNull {
            switch op {
            case .equal: return SQLFragment(.isNull(.column(column), negated: false), exact: true, indexes: indexes)
            case .notEqual: return SQLFragment(.isNull(.column(column), negated: true), exact: true)
            default: return .alwaysFalse
            }
        }
        guard accepts(value), let binding = binding(value) else {
            return .constant(op == .notEqual)
        }
        let sqlOperator: SQLComparisonOperator
        switch op {
        case .equal: sqlOperator = .equal
        // `IS NOT` is true for NULL: a missing field is != every value (§4.3).
        case .notEqual: return SQLFragment(.comparison(.column(column), .isNotSame, .value(binding)), exact: true)
        case .lessThan: sqlOperator = .lessThan
        case .lessThanOrEqual: sqlOperator = .lessThanOrEqual
        case .greaterThan: sqlOperator = .greaterThan
        case .greaterThanOrEqual: sqlOperator = .greaterThanOrEqual
        default: return nil
        }
        return SQLFragment(.comparison(.column(column), sqlOperator, .value(binding)), exact: true, indexes: indexes)
    }

    static func binding(_ value: Value) -> SQLValue? {
        switch value {
        case .string(let text): .text(text)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .bool(let flag): .int(flag ? 1 : 0)
        case .date(let nanoseconds): .int(nanoseconds)
        default: nil
        }
    }

    /// OR of element comparisons; `column = ?` alternatives on one column become `column IN (…)`.
    static func anyOf(_ parts: [SQLFragment]) -> SQLFragment {
        let live = parts.filter { !$0.isFalse }
        if live.isEmpty { return .alwaysFalse }
        if live.contains(where: \.isTrue) { return .alwaysTrue }
        let exact = live.allSatisfy(\.exact)
        let indexes = Array(Set(live.flatMap(\.indexes))).sorted()
        let equalities = live.compactMap { part -> (column: String, value: SQLValue)? in
            guard case .comparison(.column(let column), .equal, .value(let value)) = part.expression else { return nil }
            return (column, value)
        }
        if live.count > 1, equalities.count == live.count, Set(equalities.map(\.column)).count == 1 {
            let list = SQLExpression.inList(.column(equalities[0].column), equalities.map { .value($0.value) }, negated: false)
            return SQLFragment(list, exact: exact, indexes: indexes)
        }
        if live.count == 1 { return live[0] }
        var joined = SQLShape.join(live, with: .or, exact: exact)
        joined.indexes = indexes
        return joined
    }

    static func allOf(_ parts: [SQLFragment]) -> SQLFragment {
        if parts.contains(where: \.isFalse) { return .alwaysFalse }
        let live = parts.filter { !$0.isTrue }
        if live.isEmpty { return .alwaysTrue }
        var joined = SQLShape.join(live, with: .and, exact: live.allSatisfy(\.exact))
        joined.indexes = Array(Set(live.flatMap(\.indexes))).sorted()
        return joined
    }

    /// Strings starting with `prefix` are those ≥ prefix and < prefix with its last scalar
    /// incremented (UTF-8 byte order is scalar order). Not exact: a match may not end inside a
    /// combining sequence (§5.1), which Swift checks again.
    static func prefixRange(column: String, prefix: String, index: String?) -> SQLFragment {
        guard !prefix.isEmpty else { return .alwaysFalse }
        var scalars = Array(prefix.unicodeScalars)
        var upper: String?
        while let last = scalars.popLast() {
            var next = last.value + 1
            if next == 0xD800 { next = 0xE000 }
            if let scalar = Unicode.Scalar(next) {
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars)
                view.append(scalar)
                upper = String(view)
                break
            }
        }
        let indexes = index.map { [$0] } ?? []
        guard let upper else {
            return SQLFragment(.comparison(.column(column), .greaterThanOrEqual, .value(.text(prefix))), exact: false, indexes: indexes)
        }
        let range = SQLExpression.chain(.and, [
            .comparison(.column(column), .greaterThanOrEqual, .value(.text(prefix))),
            .comparison(.column(column), .lessThan, .value(.text(upper))),
        ], parenthesized: false)
        return SQLFragment(range, exact: false, indexes: indexes)
    }
}

/// `metadata.<key>` through the database's JSON functions, typed like the Swift side: a JSON
/// string is a string, a JSON number or boolean a number, JSON null or an absent key nil.
enum MetadataSQL {
    static func compare(key: String, op: ComparisonOperator, value: Value, folded: Bool) -> SQLFragment? {
        if value.isNull {
            let isNull = SQLExpression.chain(.or, [
                .isNull(.column("metadata"), negated: false), .metadataType(key: key, .absent), .metadataType(key: key, .null),
            ], parenthesized: false)
            switch op {
            case .equal: return SQLFragment(isNull, exact: true)
            case .notEqual: return SQLFragment(.notCoalesced(isNull), exact: true)
            default: return .alwaysFalse
            }
        }
        let type: MetadataJSONType
        switch value {
        case .string:
            if folded { return nil }
            type = .text
        case .int, .double, .bool:
            type = .number
        default:
            return .constant(op == .notEqual)
        }
        guard let binding = LiteralSQL.binding(value) else { return nil }
        let sqlOperator: SQLComparisonOperator
        switch op {
        case .equal, .notEqual: sqlOperator = .equal
        case .lessThan: sqlOperator = .lessThan
        case .lessThanOrEqual: sqlOperator = .lessThanOrEqual
        case .greaterThan: sqlOperator = .greaterThan
        case .greaterThanOrEqual: sqlOperator = .greaterThanOrEqual
        default: return nil
        }
        let test = SQLExpression.chain(.and, [
            .metadataType(key: key, type), .metadataComparison(key: key, sqlOperator, binding),
        ], parenthesized: false)
        return SQLFragment(op == .notEqual ? .notCoalesced(test) : test, exact: true)
    }
}

/// `field op field` for two columns of the same kind, without options.
enum FieldPairTranslator {
    static func translate(_ left: Field, _ op: ComparisonOperator, _ right: Field, comparison: Comparison) -> SQLFragment? {
        guard let leftColumn = left.column, let rightColumn = right.column, left.type == right.type,
              !comparison.folding.isActive
        else { return nil }
        switch left.type {
        case .string, .integer, .date: break
        case .symbolic(let kind) where kind == .messageType || kind == .eventType: break
        default: return nil
        }
        let sqlOperator: SQLComparisonOperator
        switch op {
        // Null-safe equality: nil == nil (§4.2).
        case .equal: sqlOperator = .isSame
        case .notEqual: sqlOperator = .isNotSame
        case .lessThan: sqlOperator = .lessThan
        case .lessThanOrEqual: sqlOperator = .lessThanOrEqual
        case .greaterThan: sqlOperator = .greaterThan
        case .greaterThanOrEqual: sqlOperator = .greaterThanOrEqual
        default: return nil
        }
        return SQLFragment(.comparison(.column(leftColumn), sqlOperator, .column(rightColumn)), exact: true)
    }
}
