import DiagModel
import DiagPredicate
import DiagQuery

/// A `diag fleet show` or `stats` query: `log show`'s selection, a predicate and an optional
/// bundle, planned as one PostgreSQL condition with bound parameters plus, when SQL cannot decide
/// the predicate exactly, a check in Swift with the predicate's own evaluator.
public struct FleetQuery: Sendable {
    public var selection: RecordSelection
    public var predicate: Predicate?
    public var bundleID: Int64?

    public init(selection: RecordSelection = RecordSelection(), predicate: Predicate? = nil, bundleID: Int64? = nil) {
        self.selection = selection
        self.predicate = predicate
        self.bundleID = bundleID
    }

    static let maximumPredicateParameters = 60_000

    public func plan() -> FleetPlan {
        var parameters = ParameterList()
        var clauses: [String] = []
        var residual: Predicate? = nil
        var predicateInSQL = true
        var start = selection.start
        var end = selection.end
        if let predicate {
            let plan = predicate.plan()
            if let expression = plan.sqlExpression {
                // PostgreSQL takes at most 65,535 parameters; a larger plan (a huge IN list) runs in Swift.
                var dialect = PostgresDialect(parameters: parameters)
                if plan.bindings.count <= Self.maximumPredicateParameters, let text = expression.rendered(in: &dialect) {
                    parameters = dialect.parameters
                    clauses.append("(\(text))")
                    residual = plan.residual
                } else {
                    // No exact counterpart: the plan's necessary conditions narrow, Swift decides.
                    residual = predicate
                    predicateInSQL = false
                }
            } else {
                residual = plan.residual
            }
            if let low = plan.timeRange.start { start = max(start ?? low, low) }
            if let high = plan.timeRange.end { end = min(end ?? high, high) }
            for needle in plan.messageSearch where !needle.utf8.contains(0) {
                clauses.append(#""messageFolded" LIKE "# + parameters.add("%" + Self.likeEscaped(needle) + "%", as: "text"))
            }
        }
        if let start { clauses.append(#""timestamp" >= "# + parameters.add(String(start), as: "bigint")) }
        if let end { clauses.append(#""timestamp" < "# + parameters.add(String(end), as: "bigint")) }
        if selection.levels.count < MessageType.allCases.count {
            let codes = MessageType.allCases.filter { selection.levels.contains($0) }
                .map { parameters.add(String($0.rawValue), as: "smallint") }
            clauses.append(#""messageType" IN ("# + codes.joined(separator: ", ") + ")")
        }
        if !selection.processes.isEmpty {
            let alternatives = selection.processes.map { selector -> String in
                switch selector {
                case .id(let id): return #""processID" = "# + parameters.add(String(id), as: "bigint")
                case .name(let name): return #""process" = "# + parameters.add(name, as: "text")
                }
            }
            clauses.append("(" + alternatives.joined(separator: " OR ") + ")")
        }
        if !selection.senders.isEmpty {
            clauses.append(#""sender" IN ("# + selection.senders.map { parameters.add($0, as: "text") }.joined(separator: ", ") + ")")
        }
        if let bundleID { clauses.append(#""bundleID" = "# + parameters.add(String(bundleID), as: "bigint")) }
        return FleetPlan(
            whereSQL: clauses.isEmpty ? "TRUE" : clauses.joined(separator: " AND "),
            parameters: parameters, residual: residual, predicateInSQL: predicateInSQL)
    }

    /// `LIKE` treats `%`, `_` and `\` specially: each is escaped to stand for itself.
    static func likeEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}

/// The PostgreSQL side of a fleet query.
public struct FleetPlan: Sendable {
    /// A boolean condition over `records` with `$n` placeholders only.
    public var whereSQL: String
    public var parameters: ParameterList
    /// What Swift checks on each row SQL returns; nil when SQL decides exactly.
    public var residual: Predicate?
    /// Whether the predicate's SQL part reached PostgreSQL (false: the whole predicate runs in Swift).
    public var predicateInSQL: Bool

    public var isExact: Bool { residual == nil }
}
