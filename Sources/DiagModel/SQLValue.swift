/// A value bound to a `?` placeholder of an SQL statement: what the predicate planner hands the
/// store, so that no user text is ever pasted into SQL.
public enum SQLValue: Sendable, Hashable {
    case null
    case int(Int64)
    case double(Double)
    case text(String)
}
