import DiagCommandLine
import DiagOutput
import DiagPredicate
import DiagQuery

/// A parsed predicate as the query's condition: its plan for stores, the whole predicate for files.
enum PredicateCondition {
    /// The most `(P) AND c` wrappers a command puts around the user's predicate (--activity,
    /// --signpost, --grep; stats' --process and --sender): the parser allows them beyond the
    /// 256 levels `diag predicate check` allows, so what check accepts runs (issue 13, item 8).
    static let wrapperLevels = 4

    /// Parses the predicate; a bad one is bad input (exit 65) with the parser's message and caret.
    /// Date literals without a zone are read in `zone`, as `--start` and `--end` are.
    static func make(_ text: String, variables: [String: String], zone: DisplayZone) throws -> QueryCondition {
        UndecidedMatchCheck.install()
        let predicate: Predicate
        do {
            predicate = try Predicate.parse(text, variables: variables, dateZone: DateLiteralZone(zone), enclosingLevels: wrapperLevels)
        } catch {
            throw InputError(error.description)
        }
        let plan = predicate.plan()
        var messageResidual: (@Sendable (UnsafeBufferPointer<UInt8>) -> Bool)?
        if let residual = plan.residual, residual.readsOnlyMessage {
            messageResidual = { residual.evaluate(messageUTF8: $0) }
        }
        return QueryCondition(
            sqlWhere: plan.sqlWhere, bindings: plan.bindings, messageSearch: plan.messageSearch,
            start: plan.timeRange.start, end: plan.timeRange.end,
            residual: plan.residual.map { residual in { residual.evaluate($0) } },
            messageResidual: messageResidual,
            matches: predicate.evaluate)
    }
}

extension DateLiteralZone {
    /// The display zone's offsets, for the predicate's date literals.
    init(_ zone: DisplayZone) {
        self.init { instant in
            var zone = zone
            return zone.offsetSeconds(at: instant)
        }
    }
}
