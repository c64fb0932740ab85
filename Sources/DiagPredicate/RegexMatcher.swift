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

    struct CompileError: Error {
        var reason: String
    }

    init(pattern: String, caseInsensitive: Bool) throws(CompileError) {
        self.pattern = pattern
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
        let range = NSRange(location: 0, length: subject.utf16.count)
        return expression.firstMatch(in: subject, options: [], range: range) != nil
    }
}
