import DiagModel
import Foundation
import Synchronization

/// A `MATCHES` pattern compiled once (PREDICATES.md §5.2): ICU syntax, whole-string match, `.`
/// matching line breaks, `^`/`$` at line boundaries.
///
/// Three engines give the one answer ICU's whole-string match `\A(?:pattern)\z` would give:
/// 1. `RegexAutomaton`, a bit-parallel byte automaton, for sequences of one-character atoms on
///    ASCII text (most patterns, most messages);
/// 2. the linear engine (`LinearRegexParser`, `LinearRegexProgram`, `LinearRegexMachine`), a
///    Thompson simulation that cannot backtrack nor give up, for every pattern it covers;
/// 3. ICU through its C API (`ICURegex`) for the rest (backreferences, lookaround, …) and, under
///    `[c]`, for text holding a scalar that case-folds to several (`ß`, which ICU matches to
///    `ss`). ICU may give up: such a record is counted in `UndecidedMatches`, never silently
///    answered "no".
///
/// The pattern is compiled by NSRegularExpression first, so that ICU's own errors are reported
/// as written whatever engine runs it.
final class RegexMatcher: Sendable {
    let pattern: String
    private let caseInsensitive: Bool
    /// The pattern as a byte automaton, when it is of the kind one can run (`RegexAutomaton`):
    /// it decides ASCII text, the engines the rest.
    private let automaton: RegexAutomaton?
    /// Nil when the pattern is left to ICU.
    let linear: LinearRegexProgram?
    /// The whole-string form in ICU, for patterns left to it, and for `[c]` patterns (texts with
    /// multi-scalar case foldings); nil otherwise, or when ICU could not be loaded for a `[c]`
    /// pattern (those texts are then counted as undecided).
    private let icu: ICURegex?
    /// For `.*X.*` left to ICU: X alone, searched anywhere (see `unanchoredCore`).
    private let icuSearch: ICURegex?
    /// Literal runs every match contains (lower-cased when case-insensitive), checked by a byte
    /// search before a regex engine runs.
    let requiredRuns: [[UInt8]]
    /// The records ICU gave up on with this matcher (also counted, per pattern, in
    /// `UndecidedMatches` for the command to report).
    private let undecided = Atomic<Int>(0)
    var undecidedRecords: Int { undecided.load(ordering: .relaxed) }

    struct CompileError: Error {
        var reason: String
    }

    /// `automaton`: whether to build the byte automaton, which asks NSRegularExpression about
    /// every ASCII character once per atom: worth it for a pattern used on many records, not for one.
    init(pattern: String, caseInsensitive: Bool, automaton: Bool = true) throws(CompileError) {
        self.pattern = pattern
        self.caseInsensitive = caseInsensitive
        requiredRuns = RegexLiteralRuns.required(pattern).map { Array((caseInsensitive ? $0.lowercased() : $0).utf8) }
        let options = Self.options(caseInsensitive: caseInsensitive)
        do {
            _ = try NSRegularExpression(pattern: pattern, options: options)
        } catch {
            throw CompileError(reason: "not a valid ICU regular expression")
        }
        do {
            _ = try NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z", options: options)
        } catch {
            // Only a pattern whose end swallows the wrapper gets here: a trailing `#` comment
            // in (?x) mode or an unterminated \Q.
            throw CompileError(reason: "a regular expression may not end inside a (?x) comment or an unterminated \\Q…\\E quote")
        }
        if let node = LinearRegexParser.parse(pattern, caseInsensitive: caseInsensitive) {
            do {
                linear = try LinearRegexProgram(node)
            } catch {
                throw CompileError(reason: "the pattern is too large: it needs more than \(LinearRegexProgram.instructionLimit) steps of the linear engine (counted repetitions such as {2,500} are written out in full); use smaller counts or * and +")
            }
        } else {
            linear = nil
        }
        if linear == nil || caseInsensitive {
            do {
                icu = try ICURegex(pattern: "\\A(?:" + pattern + ")\\z", caseInsensitive: caseInsensitive)
            } catch {
                guard linear != nil else { throw CompileError(reason: "the pattern needs ICU (it uses a construct the linear engine does not cover), and \(error.reason)") }
                icu = nil
            }
            icuSearch = linear == nil ? Self.unanchoredCore(pattern).flatMap { try? ICURegex(pattern: $0, caseInsensitive: caseInsensitive) } : nil
        } else {
            icu = nil
            icuSearch = nil
        }
        self.automaton = automaton ? RegexAutomaton(pattern: pattern, options: options) : nil
    }

    static func options(caseInsensitive: Bool) -> NSRegularExpression.Options {
        var options: NSRegularExpression.Options = [.dotMatchesLineSeparators, .anchorsMatchLines]
        if caseInsensitive { options.insert(.caseInsensitive) }
        return options
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
        var text = subject
        return text.withUTF8 { bytes in
            if let automaton, let decided = automaton.matches(bytes) { return decided }
            if let linear, !(caseInsensitive && LinearRegexCaseFolding.holdsMultiScalarFolding(bytes)) {
                return LinearRegexMachine(program: linear).matches(bytes)
            }
            return icuMatches(subject)
        }
    }

    /// The answer for ASCII text given as bytes, when the automaton or the linear engine gives
    /// it; nil when the pattern is ICU's.
    func matches(ascii bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard automaton != nil || linear != nil else { return nil }
        for run in requiredRuns {
            let found = run.withUnsafeBufferPointer { StringSearch.asciiContains(bytes, $0, lowercasing: caseInsensitive) }
            if !found { return false }
        }
        if let automaton, let decided = automaton.matches(bytes) { return decided }
        guard let linear else { return nil }
        return LinearRegexMachine(program: linear).matches(bytes)
    }

    /// ICU's answer; a record it gives up on is counted (`UndecidedMatches`) and answered "no".
    private func icuMatches(_ subject: String) -> Bool {
        let answer = (icuSearch ?? icu)?.find(subject) ?? .undecided("ICU could not be loaded")
        switch answer {
        case .match: return true
        case .noMatch: return false
        case .undecided(let reason):
            undecided.add(1, ordering: .relaxed)
            UndecidedMatches.record(pattern: pattern, reason: reason)
            return false
        }
    }

    /// NSRegularExpression's whole-string answer: for tests, the reference every engine here
    /// must agree with wherever ICU answers.
    func matchesAnchored(_ subject: String) -> Bool {
        let expression = try! NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z", options: Self.options(caseInsensitive: caseInsensitive))
        return expression.firstMatch(in: subject, options: [], range: NSRange(location: 0, length: subject.utf16.count)) != nil
    }

    /// False when a required run is missing. A case-insensitive match of non-ASCII text is left
    /// to the engine (the Kelvin sign matches `k`).
    private func mayMatch(_ subject: String) -> Bool {
        var subject = subject
        return subject.withUTF8 { bytes in
            if caseInsensitive {
                guard UTF8Validation.isASCII(bytes) else { return true }
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
