import DiagModel

/// One comparison as SQL, when SQL can decide it: equality and ranges on integer, symbolic and
/// date fields, exact (option-less) string equality and ranges, IN lists, BEGINSWITH as a range,
/// `metadata.<key>` through `json_extract`; an option-less MATCHES narrowed by its pattern's
/// literal runs (`RegexSQL`). Options, LIKE, MATCHES and CONTAINS are decided in Swift.
enum ComparisonTranslator {
    static func translate(_ comparison: Comparison) -> SQLFragment? {
        // Both sides independent of the record (literals, SELF, keys we never hold): a constant.
        if isConstant(comparison.left), isConstant(comparison.right) {
            return .constant(comparison.evaluate(placeholderRecord))
        }
        guard comparison.qualifier == nil else { return nil }
        var op = comparison.op
        var fieldSide = comparison.left
        var other = comparison.right
        if fieldSide.field == nil, comparison.right.field != nil {
            guard let flipped = flip(op) else {
                // `{…} CONTAINS field` is `field IN {…}`.
                guard op == .contains, case .aggregate = comparison.left else { return nil }
                return translate(field: comparison.right.field!, op: .in, other: comparison.left, comparison: comparison)
            }
            op = flipped
            swap(&fieldSide, &other)
        }
        guard let field = fieldSide.field else { return nil }
        return translate(field: field, op: op, other: other, comparison: comparison)
    }

    private static let placeholderRecord = LogRecord(timestamp: 0, eventMessage: "")

    private static func isConstant(_ operand: Operand) -> Bool {
        switch operand {
        case .literal, .record: return true
        case .field(let field, _): if case .absent = field { return true } else { return false }
        case .aggregate(let elements): return elements.allSatisfy(isConstant)
        }
    }

    /// `literal op field` as `field op' literal`.
    private static func flip(_ op: ComparisonOperator) -> ComparisonOperator? {
        switch op {
        case .equal, .notEqual: op
        case .lessThan: .greaterThan
        case .lessThanOrEqual: .greaterThanOrEqual
        case .greaterThan: .lessThan
        case .greaterThanOrEqual: .lessThanOrEqual
        default: nil
        }
    }

    private static func translate(field: Field, op: ComparisonOperator, other: Operand, comparison: Comparison) -> SQLFragment? {
        if let otherField = other.field {
            return FieldPairTranslator.translate(field, op, otherField, comparison: comparison)
        }
        switch op {
        case .equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            guard let value = other.literal?.value else { return nil }
            return compare(field, op, value, folded: comparison.folding.isActive)
        case .in:
            guard case .aggregate(let elements) = other else { return nil }
            var parts: [SQLFragment] = []
            for element in elements {
                guard let value = element.literal?.value,
                      let part = compare(field, .equal, value, folded: comparison.folding.isActive)
                else { return nil }
                parts.append(part)
            }
            return LiteralSQL.anyOf(parts)
        case .between:
            guard case .aggregate(let bounds) = other, bounds.count == 2,
                  let low = bounds[0].literal?.value, let high = bounds[1].literal?.value,
                  let lower = compare(field, .greaterThanOrEqual, low, folded: comparison.folding.isActive),
                  let upper = compare(field, .lessThanOrEqual, high, folded: comparison.folding.isActive)
            else { return nil }
            return LiteralSQL.allOf([lower, upper])
        case .beginsWith:
            guard !comparison.folding.isActive, field.type == .string, let column = field.column,
                  let prefix = other.literal?.value.stringValue
            else { return nil }
            return LiteralSQL.prefixRange(column: column, prefix: prefix, index: index(for: field))
        case .matches:
            return RegexSQL.requiredRuns(field, comparison)
        case .endsWith, .contains, .like:
            return nil
        }
    }

    /// `field op value` for a literal value.
    static func compare(_ field: Field, _ op: ComparisonOperator, _ value: Value, folded: Bool) -> SQLFragment? {
        switch field.type {
        case .string:
            guard let column = field.column else { return nil }
            if case .string = value, folded { return nil }
            return LiteralSQL.scalar(column: column, op: op, value: value, accepts: { if case .string = $0 { true } else { false } }, index: index(for: field))
        case .integer:
            guard let column = field.column else { return nil }
            return LiteralSQL.scalar(column: column, op: op, value: numeric(value), accepts: isNumber, index: index(for: field))
        case .date:
            return LiteralSQL.scalar(column: "timestamp", op: op, value: value, accepts: { if case .date = $0 { true } else { false } }, index: index(for: field))
        case .symbolic(let kind):
            if kind == .signpostType || kind == .signpostScope { return TextSymbolSQL.compare(field, op, value, kind: kind) }
            guard kind == .messageType || kind == .eventType, let column = field.column else { return nil }
            return LiteralSQL.scalar(column: column, op: op, value: symbolCode(value, kind: kind), accepts: isNumber, index: index(for: field))
        case .typeByValue:
            switch value {
            case .symbol(.messageType, _): return compare(.messageType, op, value, folded: folded)
            default: return compare(.eventType, op, value, folded: folded)
            }
        case .json:
            guard case .metadata(let key) = field else { return nil }
            return MetadataSQL.compare(key: key, op: op, value: value, folded: folded)
        }
    }

    static func index(for field: Field) -> String? {
        switch field {
        case .process: "records_process(process, timestamp)"
        case .sender: "records_sender(sender, timestamp)"
        case .subsystem: "records_subsystem(subsystem, timestamp)"
        case .messageType: "records_level(messageType, timestamp)"
        case .timestamp: "records_timestamp(timestamp)"
        case .activityIdentifier: "records_activity(activityIdentifier)"
        default: nil
        }
    }

    private static func isNumber(_ value: Value) -> Bool {
        switch value {
        case .int, .double: true
        default: false
        }
    }

    /// Booleans are 1 and 0 (§2.7); other values are left for `scalar` to reject.
    private static func numeric(_ value: Value) -> Value {
        if case .bool(let flag) = value { return .int(flag ? 1 : 0) }
        return value
    }

    /// A symbol of the column's own table, or a number, as the code the column stores.
    private static func symbolCode(_ value: Value, kind: SymbolKind) -> Value {
        switch value {
        case .symbol(let valueKind, let code): valueKind == kind ? .int(code) : .opaque
        default: numeric(value)
        }
    }
}
