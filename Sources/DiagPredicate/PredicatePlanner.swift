import DiagModel

/// An SQL condition (a tree every dialect can write, `SQLExpression`). `exact` means that,
/// reading NULL as false, it is true for exactly the records the Swift evaluator accepts;
/// otherwise it accepts a superset.
struct SQLFragment {
    var expression: SQLExpression
    var exact: Bool
    /// The indexes of docs/ARCHITECTURE.md that can serve it.
    var indexes: [String] = []
    /// Its deepest parenthesis nesting (SQLShape keeps it under the parsers' limits).
    var nesting: Int
    /// The values its SQL binds (SQLShape keeps them under the databases' limits).
    var bindingCount: Int

    init(_ expression: SQLExpression, exact: Bool, indexes: [String] = [], nesting: Int? = nil, bindingCount: Int? = nil) {
        self.expression = expression
        self.exact = exact
        self.indexes = indexes
        self.nesting = nesting ?? expression.nesting
        self.bindingCount = bindingCount ?? expression.bindingCount
    }

    static var alwaysTrue: SQLFragment { SQLFragment(.truth(true), exact: true, nesting: 0, bindingCount: 0) }
    static var alwaysFalse: SQLFragment { SQLFragment(.truth(false), exact: true, nesting: 0, bindingCount: 0) }

    static func constant(_ value: Bool) -> SQLFragment { value ? .alwaysTrue : .alwaysFalse }

    var isTrue: Bool { expression == .truth(true) }
    var isFalse: Bool { expression == .truth(false) }
}

/// Turns predicate nodes into SQL over the chunk columns (ARCHITECTURE.md) plus a residual.
///
/// Every fragment is built so that NULL only ever stands for "false"; `NOT` wraps its operand in
/// `coalesce(…, 0)` so that three-valued logic cannot turn a missing field into a match.
struct PredicatePlanner {
    /// Bound text never enters the SQL string: the tree holds values, which a dialect binds.
    mutating func plan(_ root: PredicateNode) -> QueryPlan {
        let conjuncts: [PredicateNode] = if case .and(let children) = root { children } else { [root] }
        var sqlParts: [SQLFragment] = []
        var residualParts: [PredicateNode] = []
        var budget = SQLShape.maximumBindings
        for conjunct in conjuncts {
            // A conjunct past the binding budget is left to the residual (SQLShape).
            var fragment = translate(conjunct)
            if let bound = fragment?.bindingCount {
                if bound > budget { fragment = nil } else { budget -= bound }
            }
            if let fragment { sqlParts.append(fragment) }
            if fragment?.exact != true { residualParts.append(conjunct) }
        }
        // A conjunct that is always true adds nothing to the WHERE clause.
        sqlParts.removeAll(where: \.isTrue)
        sqlParts = SQLShape.inequalityLists(sqlParts)
        let expression = sqlParts.isEmpty ? nil : sqlParts.count == 1 ? sqlParts[0].expression : SQLShape.join(sqlParts, with: .and, exact: true).expression
        let sqlite = expression?.sqlite
        let residual: Predicate? = switch residualParts.count {
        case 0: nil
        case 1: Predicate(node: residualParts[0])
        default: Predicate(node: .and(residualParts))
        }
        let timeRange = PlanNecessaryConditions.timeRange(conjuncts)
        let messageSearch = PlanNecessaryConditions.messageSearch(conjuncts)
        var plan = QueryPlan(
            sqlExpression: expression, sqlWhere: sqlite?.sql, bindings: sqlite?.bindings ?? [], residual: residual, timeRange: timeRange,
            messageSearch: messageSearch, explanation: []
        )
        plan.explanation = PlanExplanation.lines(for: plan, indexes: sqlParts.flatMap(\.indexes))
        return plan
    }

    /// The node's SQL, or nil when SQL cannot narrow its records or the SQL would not fit the
    /// parsers' limits (SQLShape): the residual then decides.
    func translate(_ node: PredicateNode) -> SQLFragment? {
        guard let fragment = translateUnbounded(node), SQLShape.fits(fragment) else { return nil }
        return fragment
    }

    private func translateUnbounded(_ node: PredicateNode) -> SQLFragment? {
        switch node {
        case .constant(let value):
            return .constant(value)
        case .not(.not(let child)):
            // NOT NOT x is x, with NULL read as false on both sides: one level less to nest.
            return translate(child)
        case .not(let child):
            guard let inner = translate(child), inner.exact else { return nil }
            if inner.isTrue || inner.isFalse { return .constant(inner.isFalse) }
            return SQLFragment(.notCoalesced(inner.expression), exact: true, nesting: inner.nesting + 1, bindingCount: inner.bindingCount)
        case .and(let children):
            let parts = children.map(translate)
            let present = parts.compactMap { $0 }
            guard !present.isEmpty else { return nil }
            if present.contains(where: { $0.isFalse && $0.exact }) { return .alwaysFalse }
            let kept = present.filter { !$0.isTrue }
            let exact = present.count == parts.count && present.allSatisfy(\.exact)
            guard !kept.isEmpty else { return exact ? .alwaysTrue : nil }
            return SQLShape.join(SQLShape.inequalityLists(kept), with: .and, exact: exact)
        case .or(let children):
            var parts: [SQLFragment] = []
            for child in children {
                guard let part = translate(child) else { return nil }
                parts.append(part)
            }
            if parts.contains(where: { $0.isTrue && $0.exact }) { return .alwaysTrue }
            let kept = SQLShape.equalityLists(parts.filter { !$0.isFalse })
            let exact = parts.allSatisfy(\.exact)
            guard !kept.isEmpty else { return .alwaysFalse }
            return SQLShape.join(kept, with: .or, exact: exact)
        case .comparison(let comparison):
            return ComparisonTranslator.translate(comparison)
        }
    }
}
