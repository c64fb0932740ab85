import DiagCommandLine
import DiagPredicate

/// Makes a command whose `MATCHES` ICU gave up on end with the pattern, the count of records it
/// could not decide, and exit 65 (issue 13, item 5): installed wherever a command parses a
/// predicate it evaluates in this process.
enum UndecidedMatchCheck {
    static func install() {
        CompletionChecks.install("undecided MATCHES") {
            let entries = UndecidedMatches.take()
            guard !entries.isEmpty else { return }
            throw InputError(UndecidedMatches.message(entries))
        }
    }
}
