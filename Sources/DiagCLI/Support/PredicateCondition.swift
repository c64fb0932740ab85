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
    /// `user` is the text the user wrote when `text` wraps it in `(P) AND c` conditions of the
    /// command's own: an error in it is then reported against what the user typed.
    static func make(_ text: String, user: String? = nil, variables: [String: String], zone: DisplayZone) throws -> QueryCondition {
        let predicate = try parse(text, user: user, variables: variables, dateZone: DateLiteralZone(zone))
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

extension PredicateCondition {
    /// Parses `text`: the user's predicate `user` with the command's conditions ANDed in as
    /// `(user\n) AND c`. `user` is parsed alone first, so that
    /// - an error in it is reported against what the user typed: an unclosed `CONTAINS[cd` would
    ///   otherwise point at the wrapper's `) AND eventType != signpostEvent`, which they never wrote;
    /// - a text that is no predicate cannot turn into one inside the wrapper: `a == 1) OR (b == 2`
    ///   would otherwise run as `(a == 1) OR (b == 2) AND c`, the condition on one side only.
    /// `enclosingLevels`: the nesting allowed beyond `diag predicate check`'s (0 where the text is
    /// sent to diagd, which allows none).
    static func parse(_ text: String, user: String?, variables: [String: String], dateZone: DateLiteralZone,
                      enclosingLevels: Int = wrapperLevels) throws -> Predicate {
        UndecidedMatchCheck.install()
        do {
            if let user, user != text {
                _ = try Predicate.parse(user, variables: variables, dateZone: dateZone, enclosingLevels: enclosingLevels)
            }
            return try Predicate.parse(text, variables: variables, dateZone: dateZone, enclosingLevels: enclosingLevels)
        } catch {
            // The user's text parsed alone: what fails is the nesting the wrappers add (diagd's
            // bound, where `stream` gives none). Placed in the user's text all the same.
            if let user, user != text, error.predicate == text, let shift = wrapperPrefix(of: text, around: user),
               let placed = error.placed(in: user, at: shift, note: " (counting the parentheses that this command's options put around the predicate)") {
                throw InputError(placed.description)
            }
            throw InputError(error.description)
        }
    }

    /// How many bytes of `(` open `text` before `user` begins in it, as the `(P\n) AND c`
    /// wrappers put them; nil when `text` is not such a wrapping of `user`.
    static func wrapperPrefix(of text: String, around user: String) -> Int? {
        let bytes = Array(text.utf8), inner = Array((user + "\n)").utf8)
        var shift = 0
        while shift < bytes.count, bytes[shift] == UInt8(ascii: "(") {
            shift += 1
            if bytes.count - shift >= inner.count, bytes[shift..<(shift + inner.count)].elementsEqual(inner) { return shift }
        }
        return nil
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
