import DiagModel

/// A parsed NSPredicate format string of the log profile (PREDICATES.md), ready to evaluate
/// against records and to plan as SQL.
///
/// ```swift
/// let predicate = try Predicate.parse(#"process == "apsd" AND message CONTAINS[cd] "push""#)
/// predicate.evaluate(record)
/// ```
public struct Predicate: Sendable, CustomStringConvertible {
    /// The predicate as written (for `description`).
    let node: PredicateNode
    /// The same predicate with cheap conjuncts and disjuncts first, for evaluation.
    let executionNode: PredicateNode

    init(node: PredicateNode) {
        self.node = node
        self.executionNode = PredicateCost.ordered(node)
    }

    /// Parses `text`; `variables` bind `$NAME` (a value that reads as a number is a number);
    /// date literals without a zone are read in `dateZone`.
    public static func parse(_ text: String, variables: [String: String] = [:], dateZone: DateLiteralZone = .utc) throws(PredicateError) -> Predicate {
        var parser = PredicateParser(text, variables: variables, dateZone: dateZone)
        return Predicate(node: try parser.parse())
    }

    /// Whether `record` matches.
    public func evaluate(_ record: LogRecord) -> Bool {
        executionNode.evaluate(record)
    }

    /// The normalised predicate: keywords in capitals, canonical operators, literals re-quoted;
    /// parsing it again gives the same predicate.
    public var description: String { node.description }

    /// The normalised predicate with every date literal written as the instant it was read as,
    /// zone included: what to hand a reader that reads zone-less dates in another zone (diagd
    /// reads them as UTC), so that both mean the same instants.
    public var textWithAbsoluteDates: String { node.text(absoluteDates: true) }
}

/// Orders the children of AND/OR by a rough cost, so that the order a user writes conjuncts in
/// does not change speed; evaluation is pure, so the result is the same.
enum PredicateCost {
    static func ordered(_ node: PredicateNode) -> PredicateNode {
        switch node {
        case .constant, .comparison: return node
        case .not(let child): return .not(ordered(child))
        case .and(let children): return .and(sorted(children.map(ordered)))
        case .or(let children): return .or(sorted(children.map(ordered)))
        }
    }

    private static func sorted(_ nodes: [PredicateNode]) -> [PredicateNode] {
        nodes.enumerated()
            .sorted { ($0.element.cost, $0.offset) < ($1.element.cost, $1.offset) }
            .map(\.element)
    }
}

extension PredicateNode {
    /// 0 constants, 1 integers and symbols, 2 exact strings, 3 folded strings and LIKE, 5 regex.
    var cost: Int {
        switch self {
        case .constant: return 0
        case .not(let child): return child.cost
        case .and(let children), .or(let children): return children.reduce(0) { $0 + $1.cost }
        case .comparison(let comparison):
            var cost = comparison.op == .matches ? 5 : comparison.op == .like ? 3 : 1
            if comparison.folding.isActive { cost = max(cost, 3) }
            let isString = comparison.left.field?.type == .string || comparison.right.field?.type == .string
            if isString, cost < 2 { cost = 2 }
            if comparison.left.field == .eventMessage || comparison.right.field == .eventMessage { cost += 1 }
            return cost
        }
    }
}
