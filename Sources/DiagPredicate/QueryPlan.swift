import DiagModel

/// How a predicate runs against the chunk store (docs/ARCHITECTURE.md, "The planner contract"):
/// an SQL condition over the chunk columns, and what is left to check in Swift on each record.
///
/// A record matches the predicate exactly when it passes `sqlWhere` (if any) and `residual`
/// (if any). `timeRange` and `messageSearch` are necessary conditions the store may use to skip
/// chunks and records; they never widen the result.
public struct QueryPlan: Sendable {
    /// The SQL condition as a tree, for a database of another dialect (`SQLDialect`); nil when
    /// SQL cannot narrow the records. `sqlWhere` and `bindings` are its SQLite form.
    public var sqlExpression: SQLExpression?
    /// A boolean SQL expression over the `records` columns with `?` placeholders; nil when SQL
    /// cannot narrow the records.
    public var sqlWhere: String?
    /// The values for the placeholders of `sqlWhere`, in order.
    public var bindings: [SQLValue]
    /// What must still be checked on each record that SQL returns; nil when SQL decides exactly.
    public var residual: Predicate?
    /// Bounds on `timestamp` implied by the predicate (a necessary condition).
    public var timeRange: TimeRange
    /// Needles, folded with `TextFolding.fold(_:caseInsensitive: true, diacriticInsensitive: true)`
    /// and at least 3 characters long, that every matching record's folded `eventMessage` contains.
    public var messageSearch: [String]
    /// What goes to SQL, which index can serve it, what is checked per record: for `diag predicate explain`.
    public var explanation: [String]
}

/// Nanoseconds since the epoch: `start` inclusive, `end` exclusive (as `StoreFilter`); nil is unbounded.
public struct TimeRange: Sendable, Hashable {
    public var start: Int64?
    public var end: Int64?

    public init(start: Int64? = nil, end: Int64? = nil) {
        self.start = start
        self.end = end
    }

    /// No instant can satisfy the predicate.
    public var isEmpty: Bool {
        guard let start, let end else { return false }
        return start >= end
    }

    public var isUnbounded: Bool { start == nil && end == nil }

    mutating func narrow(start newStart: Int64?, end newEnd: Int64?) {
        if let newStart { start = max(start ?? newStart, newStart) }
        if let newEnd { end = min(end ?? newEnd, newEnd) }
    }
}

extension Predicate {
    /// Splits the predicate into SQL for the store and a residual for Swift.
    public func plan() -> QueryPlan {
        var planner = PredicatePlanner()
        return planner.plan(node)
    }
}
