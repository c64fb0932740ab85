import DiagModel
import DiagPredicate

/// Turns a stream's predicate into a record filter with the predicate engine.
enum StreamFilters {
    @Sendable static func make(_ text: String?) throws -> (@Sendable (LogRecord) -> Bool)? {
        guard let text, !text.isEmpty else { return nil }
        let predicate: Predicate
        do {
            predicate = try Predicate.parse(text)
        } catch {
            throw IngestError("invalid predicate: \(error)")
        }
        return { predicate.evaluate($0) }
    }
}
