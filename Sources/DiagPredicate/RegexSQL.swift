import DiagModel

/// `field MATCHES "pattern"` narrowed in SQL by the literal runs every match contains
/// (`RegexLiteralRuns`): `instr(field, run) > 0` for each, a superset the regex then decides in
/// Swift (issue 15). SQLite tests them in C on the stored text, before a row is decoded or the
/// regex runs: on a scan (the open chunk, a chunk without its search index) most rows stop there.
///
/// Only without options: a run of a case-sensitive pattern is in every match byte for byte (the
/// runs are printable ASCII, which neither ICU nor the decoding of a message's bytes changes),
/// as `RegexMatcher` itself checks before its engine runs. Under `[c]`, `[d]` or `[n]` a match
/// may spell a run otherwise (the Kelvin sign for `k`): the folded message search index and the
/// regex serve those. The message search needles (the runs of 3 characters or more, folded)
/// still prefilter through the trigram index beside this.
enum RegexSQL {
    /// A run of one character is in nearly every message: testing it costs more than it saves.
    static let shortestRun = 2

    static func requiredRuns(_ field: Field, _ comparison: Comparison) -> SQLFragment? {
        let options = comparison.options
        guard !options.caseInsensitive, !options.diacriticInsensitive, !options.normalized,
              field.type == .string, let column = field.column,
              case .regex(let matcher)? = comparison.pattern
        else { return nil }
        let runs = RegexLiteralRuns.required(matcher.pattern).filter { $0.unicodeScalars.count >= shortestRun }
        var seen = Set<String>()
        let tests = runs.filter { seen.insert($0).inserted }.map { run in
            SQLFragment(.containsText(haystack: .column(column), needle: .value(.text(run))), exact: false)
        }
        guard !tests.isEmpty else { return nil }
        var all = LiteralSQL.allOf(tests)
        all.exact = false
        return all
    }
}
