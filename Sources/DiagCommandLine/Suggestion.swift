/// "Did you mean …?" for a mistyped subcommand or option (`diag shwo`, `--lsat`), as the
/// predicate's field names already have.
enum Suggestion {
    /// The candidate closest to `typed`, when it is close enough to be a slip of the fingers:
    /// at most two edits (a swapped pair counts as one), and fewer than the word's own length.
    static func closest(to typed: String, among candidates: [String]) -> String? {
        let word = Array(typed.lowercased())
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(word, Array(candidate.lowercased()))
            if distance <= 2, distance < word.count, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of
    /// neighbours. Words typed on a command line are short, so the table is small; longer
    /// inputs are not slips and are cut off.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard a.count <= 64, b.count <= 64 else { return .max }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }

    /// ` (did you mean 'X'?)`, or nothing.
    static func clause(for typed: String, among candidates: [String], prefix: String = "") -> String {
        guard let match = closest(to: typed, among: candidates) else { return "" }
        return " (did you mean '\(prefix)\(match)'?)"
    }
}
