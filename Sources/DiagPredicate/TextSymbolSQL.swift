import DiagModel

/// `signpostType` and `signpostScope` as SQL. Unlike `messageType` and `eventType`, the store
/// keeps them as the text a component sent (`begin`, `intervalBegin`, `process`, …), and the
/// evaluator reads that text as a symbol in any case (`SymbolKind.spellings`); so a symbol
/// compares as `lower(column) IN (its spellings)`. SQLite's `lower` folds ASCII only, as
/// PostgreSQL's does under `COLLATE "C"`; every spelling is ASCII and no other character folds
/// to an ASCII letter of them, so the two agree with Swift's `lowercased()` on these words.
enum TextSymbolSQL {
    static func compare(_ field: Field, _ op: ComparisonOperator, _ value: Value, kind: SymbolKind) -> SQLFragment? {
        guard let column = field.column else { return nil }
        if value.isNull {
            switch op {
            case .equal: return SQLFragment(.isNull(.column(column), negated: false), exact: true)
            case .notEqual: return SQLFragment(.isNull(.column(column), negated: true), exact: true)
            default: return nil
            }
        }
        // Only a symbol of the field's own table: a number or a text compares with the record's
        // value by rules (a code against an unknown spelling) the evaluator alone decides.
        guard case .symbol(let valueKind, let code) = value, valueKind == kind else { return nil }
        let spellings = SymbolKind.spellings(of: kind).first { $0.code == code }?.spellings ?? []
        guard !spellings.isEmpty else { return .constant(op == .notEqual) }
        let list = spellings.map { SQLExpression.value(.text($0)) }
        switch op {
        case .equal:
            return SQLFragment(.inList(.lower(.column(column)), list, negated: false), exact: true)
        case .notEqual:
            // A missing field is != every value (PREDICATES.md §4.3).
            return SQLFragment(.group(.chain(.or, [
                .isNull(.column(column), negated: false), .inList(.lower(.column(column)), list, negated: true),
            ], parenthesized: false)), exact: true)
        default:
            return nil
        }
    }
}
