import DiagCommandLine
import DiagPredicate
import DiagQuery

/// A parsed predicate as the query's condition.
enum PredicateCondition {
    /// Parses the predicate; a bad one is bad input (exit 65) with the parser's message and caret.
    static func make(_ text: String, variables: [String: String]) throws -> QueryCondition {
        let predicate: Predicate
        do {
            predicate = try Predicate.parse(text, variables: variables)
        } catch {
            throw InputError(error.description)
        }
        return QueryCondition(residual: predicate.evaluate, matches: predicate.evaluate)
    }
}
