import DiagCommandLine

/// `--signpost` / `--no-signpost` of `diag show`, as `log show` has them: signposts are
/// measurements (`diag signposts` reads them), so a plain `show` leaves them out and
/// `--signpost` brings them in. The choice is a predicate term, so the planner serves it in SQL.
enum SignpostArgument {
    static func validate(signpost: Bool, noSignpost: Bool) throws {
        if signpost && noSignpost {
            throw ValidationError("--signpost and --no-signpost cannot be used together")
        }
    }

    /// The user's predicate, if any, without signposts unless they are included.
    static func restrict(_ predicate: String?, includeSignposts: Bool) -> String? {
        guard !includeSignposts else { return predicate }
        let condition = "eventType != signpostEvent"
        guard let predicate else { return condition }
        return "(\(predicate)\n) AND \(condition)"
    }
}
