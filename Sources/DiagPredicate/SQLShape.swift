import DiagModel

/// Keeps a planned WHERE within what SQLite's and PostgreSQL's parsers take, for any predicate
/// the parser accepts (issue 13, item 8).
///
/// SQLite 3.40 (Debian 12) refuses an expression tree deeper than 1000 ("Expression tree is too
/// large"), and its parser's stack of 100 entries overflows after about 28 open parentheses in
/// the shapes the planner writes (`(a) AND (NOT coalesce(…` uses three entries per parenthesis).
/// So long lists are written as a tree of short chains, equality lists on one column as
/// `column IN (…)`, and a fragment that would still nest too deeply or bind too many values is
/// not given to SQL at all: its records are checked by the Swift residual instead, which gives
/// the same answer (the planner contract), only without the index.
enum SQLShape {
    /// Operands in one `a OR b OR …` chain before it is split into parenthesised groups: a chain
    /// of n is n levels of SQLite's expression tree but no parser stack.
    static let chainLength = 16
    /// Open parentheses a fragment may have. The caller wraps the WHERE in a few more (the
    /// level filter, `timestamp < ? AND (…)`) and the plan joins its conjuncts in up to four more
    /// (for 20,000 conjuncts): 12 + those stays under the ~28 that overflow.
    static let maximumNesting = 12
    /// Bound values per statement: SQLite 3.40's SQLITE_MAX_VARIABLE_NUMBER is 32766,
    /// PostgreSQL's protocol takes 65535; the rest is left for the caller's own bindings.
    static let maximumBindings = 30_000

    /// Whether SQL may be given `fragment`; otherwise the residual decides in its place.
    static func fits(_ fragment: SQLFragment) -> Bool {
        fragment.nesting <= maximumNesting && fragment.bindingCount <= maximumBindings
    }

    /// `parts` joined by `connective`: each part in parentheses, chains of at most
    /// `chainLength`, grouped again while there are more, so n parts nest log₁₆ n deep.
    static func join(_ parts: [SQLFragment], with connective: SQLConnective, exact: Bool) -> SQLFragment {
        var level = parts
        repeat {
            level = stride(from: 0, to: level.count, by: chainLength).map { start in
                let chain = level[start..<min(start + chainLength, level.count)]
                if chain.count == 1 { return chain[chain.startIndex] }
                return SQLFragment(
                    .chain(connective, chain.map(\.expression), parenthesized: true), exact: exact,
                    indexes: chain.flatMap(\.indexes), nesting: 1 + (chain.map(\.nesting).max() ?? 0),
                    bindingCount: chain.reduce(0) { $0 + $1.bindingCount })
            }
        } while level.count > 1
        var joined = level[0]
        joined.exact = exact
        return joined
    }

    /// Alternatives `column = ?` on the same column become one `column IN (?, …)` in the place of
    /// the first; SQLite answers it from the column's index (or a binary search per row) instead
    /// of one comparison per alternative. The same truth value on every row, NULL included.
    static func equalityLists(_ parts: [SQLFragment]) -> [SQLFragment] {
        merged(parts, operator: .equal) { column, values in
            .inList(.column(column), values.map(SQLExpression.value), negated: false)
        }
    }

    /// Conditions `column IS NOT ?` (a value, never NULL: `!= nil` is `IS NOT NULL`) on the same
    /// column, all required, become `(column IS NULL OR column NOT IN (?, …))`: true for a
    /// missing field as each `IS NOT` is, one binary search per row instead of one per value.
    static func inequalityLists(_ parts: [SQLFragment]) -> [SQLFragment] {
        merged(parts, operator: .isNotSame) { column, values in
            .group(.chain(.or, [
                .isNull(.column(column), negated: false),
                .inList(.column(column), values.map(SQLExpression.value), negated: true),
            ], parenthesized: false))
        }
    }

    /// Exact `column op value` parts on one column, two or more, replaced by what `written`
    /// gives in the place of the first, with their values in order.
    private static func merged(_ parts: [SQLFragment], operator op: SQLComparisonOperator, written: (String, [SQLValue]) -> SQLExpression) -> [SQLFragment] {
        var firstPosition: [String: Int] = [:]
        var values: [String: [SQLValue]] = [:]
        var kept: [SQLFragment] = []
        for part in parts {
            guard part.exact, case .comparison(.column(let column), op, .value(let value)) = part.expression else {
                kept.append(part)
                continue
            }
            if firstPosition[column] == nil {
                firstPosition[column] = kept.count
                kept.append(part)
            }
            values[column, default: []].append(value)
        }
        for (column, position) in firstPosition {
            let list = values[column]!
            guard list.count > 1 else { continue }
            kept[position] = SQLFragment(written(column, list), exact: true, indexes: kept[position].indexes)
        }
        return kept
    }
}
