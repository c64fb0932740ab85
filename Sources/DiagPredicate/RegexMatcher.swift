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
    private let caseInsensitive: Bool
    /// Literal runs every match contains (lower-cased when case-insensitive), checked by a byte
    /// search before the regex engine runs.
    let requiredRuns: [[UInt8]]

    struct CompileError: Error {
        var reason: String
    }

    init(pattern: String, caseInsensitive: Bool) throws(CompileError) {
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
    }

    func matches(_ subject: String) -> Bool {
        if !requiredRuns.isEmpty, !mayMatch(subject) { return false }
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
