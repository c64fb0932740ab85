import DiagModel

/// An SQL condition with its bound values. `exact` means that, reading NULL as false, it is true
/// for exactly the records the Swift evaluator accepts; otherwise it accepts a superset.
struct SQLFragment {
    var sql: String
    var bindings: [SQLValue]
    var exact: Bool
    /// The indexes of docs/ARCHITECTURE.md that can serve it.
    var indexes: [String] = []

    static let alwaysTrue = SQLFragment(sql: "1", bindings: [], exact: true)
    static let alwaysFalse = SQLFragment(sql: "0", bindings: [], exact: true)

    static func constant(_ value: Bool) -> SQLFragment { value ? .alwaysTrue : .alwaysFalse }
}

/// Turns predicate nodes into SQL over the chunk columns (ARCHITECTURE.md) plus a residual.
///
/// Every fragment is built so that NULL only ever stands for "false"; `NOT` wraps its operand in
/// `coalesce(…, 0)` so that three-valued logic cannot turn a missing field into a match.
struct PredicatePlanner {
    /// Bound text never enters the SQL string; fragments carry placeholders only.
    mutating func plan(_ root: PredicateNode) -> QueryPlan {
        let conjuncts: [PredicateNode] = if case .and(let children) = root { children } else { [root] }
        var sqlParts: [SQLFragment] = []
        var residualParts: [PredicateNode] = []
        for conjunct in conjuncts {
            let fragment = translate(conjunct)
            if let fragment { sqlParts.append(fragment) }
            if fragment?.exact != true { residualParts.append(conjunct) }
        }
        // A conjunct that is always true adds nothing to the WHERE clause.
        sqlParts.removeAll { $0.sql == "1" }
        let sqlWhere = sqlParts.isEmpty ? nil : sqlParts.map { sqlParts.count > 1 ? "(\($0.sql))" : $0.sql }.joined(separator: " AND ")
        let bindings = sqlParts.flatMap(\.bindings)
        let residual: Predicate? = switch residualParts.count {
        case 0: nil
        case 1: Predicate(node: residualParts[0])
        default: Predicate(node: .and(residualParts))
        }
        let timeRange = PlanNecessaryConditions.timeRange(conjuncts)
        let messageSearch = PlanNecessaryConditions.messageSearch(conjuncts)
        var plan = QueryPlan(
            sqlWhere: sqlWhere, bindings: bindings, residual: residual, timeRange: timeRange,
            messageSearch: messageSearch, explanation: []
        )
        plan.explanation = PlanExplanation.lines(for: plan, indexes: sqlParts.flatMap(\.indexes))
        return plan
    }

    func translate(_ node: PredicateNode) -> SQLFragment? {
        switch node {
        case .constant(let value):
            return .constant(value)
        case .not(let child):
            guard let inner = translate(child), inner.exact else { return nil }
            if inner.sql == "1" || inner.sql == "0" { return .constant(inner.sql == "0") }
            return SQLFragment(sql: "NOT coalesce(\(inner.sql), 0)", bindings: inner.bindings, exact: true)
        case .and(let children):
            let parts = children.map(translate)
            let present = parts.compactMap { $0 }
            guard !present.isEmpty else { return nil }
            if present.contains(where: { $0.sql == "0" && $0.exact }) { return .alwaysFalse }
            let kept = present.filter { $0.sql != "1" }
            let exact = present.count == parts.count && present.allSatisfy(\.exact)
            guard !kept.isEmpty else { return exact ? .alwaysTrue : nil }
            return SQLFragment(
                sql: kept.map { "(\($0.sql))" }.joined(separator: " AND "), bindings: kept.flatMap(\.bindings),
                exact: exact, indexes: kept.flatMap(\.indexes))
        case .or(let children):
            var parts: [SQLFragment] = []
            for child in children {
                guard let part = translate(child) else { return nil }
                parts.append(part)
            }
            if parts.contains(where: { $0.sql == "1" && $0.exact }) { return .alwaysTrue }
            let kept = parts.filter { $0.sql != "0" }
            let exact = parts.allSatisfy(\.exact)
            guard !kept.isEmpty else { return .alwaysFalse }
            return SQLFragment(
                sql: kept.map { "(\($0.sql))" }.joined(separator: " OR "), bindings: kept.flatMap(\.bindings),
                exact: exact, indexes: kept.flatMap(\.indexes))
        case .comparison(let comparison):
            return ComparisonTranslator.translate(comparison)
        }
    }
}
