import Foundation

/// A `MATCHES` pattern compiled once (PREDICATES.md §5.2): ICU syntax through
/// NSRegularExpression, whole-string match, `.` matching line breaks, `^`/`$` at line boundaries.
///
/// The pattern is compiled alone first, so that its own errors are reported as written; the
/// whole-string form wraps it as `\A(?:pattern)\z`, which keeps alternations whole (`ap|zz`).
// NSRegularExpression is immutable after creation and documented as safe to use from many threads.
final class RegexMatcher: @unchecked Sendable {
    let pattern: String
    private let expression: NSRegularExpression
    /// For `.*X.*`: X alone, searched anywhere (see `unanchoredCore`).
    private let search: NSRegularExpression?
    private let caseInsensitive: Bool
    /// The pattern as a byte automaton, when it is of the kind one can run (`RegexAutomaton`):
    /// it decides ASCII text, the engine the rest.
    private let automaton: RegexAutomaton?
    /// Literal runs every match contains (lower-cased when case-insensitive), checked by a byte
    /// search before the regex engine runs.
    let requiredRuns: [[UInt8]]

    struct CompileError: Error {
        var reason: String
    }

    /// `automaton`: whether to build the byte automaton, which asks the engine about every ASCII
    /// character once per atom: worth it for a pattern used on many records, not for one.
    init(pattern: String, caseInsensitive: Bool, automaton: Bool = true) throws(CompileError) {
        self.pattern = pattern
        self.caseInsensitive = caseInsensitive
        requiredRuns = RegexLiteralRuns.required(pattern).map { Array((caseInsensitive ? $0.lowercased() : $0).utf8) }
        var options: NSRegularExpression.Options = [.dotMatchesLineSeparators, .anchorsMatchLines]
        if caseInsensitive { options.insert(.caseInsensitive) }
        do {
            _ = try NSRegularExpression(pattern: pattern, options: options)
        } catch {
            throw CompileError(reason: "not a valid ICU regular expression")
        }
        do {
            expression = try NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z", options: options)
        } catch {
            // Only a pattern whose end swallows the wrapper gets here: a trailing `#` comment
            // in (?x) mode or an unterminated \Q.
            throw CompileError(reason: "a regular expression may not end inside a (?x) comment or an unterminated \\Q…\\E quote")
        }
        search = Self.unanchoredCore(pattern).flatMap { try? NSRegularExpression(pattern: $0, options: options) }
        self.automaton = automaton ? RegexAutomaton(pattern: pattern, options: options) : nil
    }

    /// X of a pattern `.*X.*`, when a whole-string match of it exists exactly when X matches
    /// somewhere: `.` matches everything here (`.dotMatchesLineSeparators`), so the two `.*`
    /// take whatever lies around X. An unanchored search for X then skips ICU's backtracking
    /// through the leading `.*` (a full scan's `.*\d{5}\D.*` spent most of its regex time
    /// there). Nil unless surely so: no `|` (the `.*` would bind to one branch), no `(?`
    /// (inline flags can turn `s` off; lookarounds), no `\Q…\E`, the first `.*` not made lazy,
    /// possessive or counted, the last `.` not escaped.
    static func unanchoredCore(_ pattern: String) -> String? {
        let scalars = Array(pattern.unicodeScalars)
        guard scalars.count > 4, pattern.hasPrefix(".*"), pattern.hasSuffix(".*") else { return nil }
        if pattern.contains("|") || pattern.contains("(?") || pattern.contains("\\Q") || pattern.contains("\\E") { return nil }
        guard !"?+{*".unicodeScalars.contains(scalars[2]) else { return nil }
        var backslashes = 0
        var index = scalars.count - 3
        while index >= 0, scalars[index] == "\\" {
            backslashes += 1
            index -= 1
        }
        guard backslashes % 2 == 0 else { return nil }
        var core = String.UnicodeScalarView()
        core.append(contentsOf: scalars[2..<(scalars.count - 2)])
        return String(core)
    }

    func matches(_ subject: String) -> Bool {
        if !requiredRuns.isEmpty, !mayMatch(subject) { return false }
        if let automaton {
            var subject = subject
            if let decided = subject.withUTF8({ automaton.matches($0) }) { return decided }
        }
        return matchesWithEngine(subject)
    }

    /// The answer for ASCII text given as bytes, when the automaton gives it; nil otherwise.
    func matches(ascii bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard let automaton else { return nil }
        for run in requiredRuns {
            let found = run.withUnsafeBufferPointer { StringSearch.asciiContains(bytes, $0, lowercasing: caseInsensitive) }
            if !found { return false }
        }
        return automaton.matches(bytes)
    }

    /// NSRegularExpression's answer alone (with the `.*X.*` search), without the automaton.
    func matchesWithEngine(_ subject: String) -> Bool {
        let range = NSRange(location: 0, length: subject.utf16.count)
        return (search ?? expression).firstMatch(in: subject, options: [], range: range) != nil
    }

    /// The whole-string form alone, without the `.*X.*` search: for tests of their equivalence.
    func matchesAnchored(_ subject: String) -> Bool {
        let range = NSRange(location: 0, length: subject.utf16.count)
        return expression.firstMatch(in: subject, options: [], range: range) != nil
    }

    /// False when a required run is missing. A case-insensitive match of non-ASCII text is left
    /// to the engine (the Kelvin sign matches `k`).
    private func mayMatch(_ subject: String) -> Bool {
        var subject = subject
        return subject.withUTF8 { bytes in
            if caseInsensitive {
                guard StringSearch.isASCII(bytes) else { return true }
                return requiredRuns.allSatisfy { run in
                    run.withUnsafeBufferPointer { StringSearch.asciiContains(bytes, $0, lowercasing: true) }
                }
            }
            return requiredRuns.allSatisfy { run in
                run.withUnsafeBufferPointer { StringSearch.asciiContains(bytes, $0, lowercasing: false) }
            }
        }
    }
}
