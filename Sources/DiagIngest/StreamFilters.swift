import DiagModel

/// Turns a stream's predicate into a record filter with the predicate engine.
enum StreamFilters {
    @Sendable static func make(_ predicate: String?) throws -> (@Sendable (LogRecord) -> Bool)? {
        guard let predicate, !predicate.isEmpty else { return nil }
        throw IngestError("predicate filtering of streams is not available in this build; stream without --predicate")
    }
}
