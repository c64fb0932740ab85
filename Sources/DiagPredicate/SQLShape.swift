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

    /// The deepest parenthesis nesting of `sql` (which has no quoted parentheses: values are bound).
    static func nesting(of sql: String) -> Int {
        var depth = 0
        var deepest = 0
        for byte in sql.utf8 {
            if byte == UInt8(ascii: "(") {
                depth += 1
                deepest = max(deepest, depth)
            } else if byte == UInt8(ascii: ")") {
                depth -= 1
            }
        }
        return deepest
    }

    /// Whether SQL may be given `fragment`; otherwise the residual decides in its place.
    static func fits(_ fragment: SQLFragment) -> Bool {
        fragment.nesting <= maximumNesting && fragment.bindings.count <= maximumBindings
    }

    /// `parts` joined by `connective` (" AND ", " OR "): each part in parentheses, chains of at
    /// most `chainLength`, grouped again while there are more, so n parts nest log₁₆ n deep.
    static func join(_ parts: [SQLFragment], with connective: String, exact: Bool) -> SQLFragment {
        var level = parts
        repeat {
            level = stride(from: 0, to: level.count, by: chainLength).map { start in
                let chain = level[start..<min(start + chainLength, level.count)]
                if chain.count == 1 { return chain[chain.startIndex] }
                return SQLFragment(
                    sql: chain.map { "(\($0.sql))" }.joined(separator: connective),
                    bindings: chain.flatMap(\.bindings), exact: exact, indexes: chain.flatMap(\.indexes),
                    nesting: 1 + (chain.map(\.nesting).max() ?? 0))
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
        merged(parts, operator: " = ?") { column, count in
            (sql: "\(column) IN (\(placeholders(count)))", nesting: 1)
        }
    }

    /// Conditions `column IS NOT ?` (a value, never NULL: `!= nil` is `IS NOT NULL`) on the same
    /// column, all required, become `(column IS NULL OR column NOT IN (?, …))`: true for a
    /// missing field as each `IS NOT` is, one binary search per row instead of one per value.
    static func inequalityLists(_ parts: [SQLFragment]) -> [SQLFragment] {
        merged(parts, operator: " IS NOT ?") { column, count in
            (sql: "(\(column) IS NULL OR \(column) NOT IN (\(placeholders(count))))", nesting: 2)
        }
    }

    private static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// Exact `column<operator>` parts on one column, two or more, replaced by what `written` gives in the place
    /// of the first, with their values in order.
    private static func merged(_ parts: [SQLFragment], operator suffix: String, written: (String, Int) -> (sql: String, nesting: Int)) -> [SQLFragment] {
        var firstPosition: [String: Int] = [:]
        var values: [String: [SQLValue]] = [:]
        var kept: [SQLFragment] = []
        for part in parts {
            guard let column = column(of: part, suffix) else {
                kept.append(part)
                continue
            }
            if firstPosition[column] == nil {
                firstPosition[column] = kept.count
                kept.append(part)
            }
            values[column, default: []].append(contentsOf: part.bindings)
        }
        for (column, position) in firstPosition {
            let list = values[column]!
            guard list.count > 1 else { continue }
            let condition = written(column, list.count)
            kept[position] = SQLFragment(sql: condition.sql, bindings: list, exact: true, indexes: kept[position].indexes, nesting: condition.nesting)
        }
        return kept
    }

    /// The column of `column<suffix>` with one binding, as `LiteralSQL.scalar` writes an exact
    /// comparison with a value.
    private static func column(of fragment: SQLFragment, _ suffix: String) -> String? {
        guard fragment.exact, fragment.bindings.count == 1, fragment.sql.hasSuffix(suffix) else { return nil }
        let column = fragment.sql.dropLast(suffix.utf8.count)
        guard !column.isEmpty, column.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
        else { return nil }
        return String(column)
    }
}
