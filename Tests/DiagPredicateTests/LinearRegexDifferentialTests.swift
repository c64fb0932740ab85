import Foundation
import Testing
import TestSupport

@testable import DiagPredicate

/// Thousands of random small patterns over the syntax the linear engine covers, each against
/// random short texts (ASCII, and the non-ASCII that trips engines up: combining marks, `ß`/`SS`,
/// `İ`/`ı`, `Σ`/`σ`/`ς`, the Kelvin sign, CR LF, Arabic digits): `RegexMatcher` must give
/// NSRegularExpression's whole-string answer every time, with and without `[c]`.
@Suite("MATCHES: linear engine against NSRegularExpression")
struct LinearRegexDifferentialTests {
    static let literals = ["a", "b", "A", "B", "k", "K", "s", "S", "\u{DF}", "\u{3C3}", "\u{3A3}", "\u{3C2}", "\u{E9}",
                           "\u{301}", " ", "-", "_", "1", "\u{663}", "\u{130}", "i", ":", "#", "]", "\u{212A}"]
    static let escapes = ["\\d", "\\w", "\\s", "\\D", "\\W", "\\S", "\\.", "\\n", "\\r", "\\t", "\\x{41}", "\\u00e9",
                          "\\x62", "\\-", "\\*", "\\Qa.\\E", "\\0141"]
    static let assertions = ["^", "$", "\\b", "\\B", "\\A", "\\z", "\\Z"]
    static let sets = ["[ab]", "[^ab]", "[a-c]", "[^a-cK]", "[\\d_]", "[a-]", "[-k]", "[\u{3C3}-\u{3C9}]", "[\\s\\w]",
                       "[^\\W]", "[]a]", "[^]a]", "[A-Z]", "[\\x{DF}s]", "[.]", "[\\n\\r]", "[a:]", "[\u{130}i]"]
    static let quantifiers = ["*", "+", "?", "{0,2}", "{2}", "{1,}", "*?", "+?", "??", "{1,2}?"]
    static let textPieces = ["a", "b", "A", "B", "k", "K", "\u{212A}", "s", "S", "\u{17F}", "\u{3C3}", "\u{3A3}", "\u{3C2}",
                             "\u{E9}", "e", "\u{301}", " ", "\n", "\r", "\r\n", "1", "\u{663}", "_", "-", "\u{DF}", "ss",
                             "\u{130}", "i", "\u{131}", ":", "]", "\u{200D}", "\u{85}"]

    struct Generator {
        var picker: SeededPicker

        mutating func pattern(depth: Int = 0) -> String {
            let branches = depth < 2 && picker.int(6) == 0 ? 2 : 1
            return (0..<branches).map { _ in sequence(depth: depth) }.joined(separator: "|")
        }

        mutating func sequence(depth: Int) -> String {
            var text = ""
            for _ in 0..<(1 + picker.int(4)) {
                text += atom(depth: depth)
            }
            return text
        }

        mutating func atom(depth: Int) -> String {
            let atom: String
            var quantifiable = true
            var repeatable = true
            switch picker.int(12) {
            case 0, 1, 2, 3: atom = picker.pick(LinearRegexDifferentialTests.literals)
            case 4, 5: atom = picker.pick(LinearRegexDifferentialTests.escapes)
            case 6: atom = picker.pick(LinearRegexDifferentialTests.assertions); quantifiable = false
            case 7, 8: atom = picker.pick(LinearRegexDifferentialTests.sets)
            case 9: atom = "."
            default:
                let inner = depth < 3 ? pattern(depth: depth + 1) : "a"
                atom = picker.pick(["(", "(?:", "(?<n>"]) + inner + ")"
                // A group that may match empty or holds a loop gets only bounded counts: ICU's
                // own backtracking (the reference) takes seconds on `(x*)*` and `(^)+?` kinds.
                repeatable = !inner.contains { "*+?{^$\\|".contains($0) }
            }
            if quantifiable, !atom.hasSuffix("\\E"), picker.int(3) == 0 {
                let quantifiers = repeatable ? LinearRegexDifferentialTests.quantifiers : ["?", "{0,2}", "{2}", "{1,2}?", "??"]
                return atom + picker.pick(quantifiers)
            }
            return atom
        }

        mutating func text() -> String {
            (0..<picker.int(7)).map { _ in picker.pick(LinearRegexDifferentialTests.textPieces) }.joined()
        }
    }

    @Test(arguments: [false, true])
    func agreesWithICU(caseInsensitive: Bool) throws {
        var generator = Generator(picker: SeededPicker(state: caseInsensitive ? 0xC0FFEE : 0x5EED))
        var patterns = 0, covered = 0, comparisons = 0, undecided = 0, mismatches: [String] = []
        while patterns < 3000 {
            let pattern = generator.pattern()
            var options: NSRegularExpression.Options = [.dotMatchesLineSeparators, .anchorsMatchLines]
            if caseInsensitive { options.insert(.caseInsensitive) }
            guard let reference = try? NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z", options: options) else { continue }
            patterns += 1
            let matcher = try RegexMatcher(pattern: pattern, caseInsensitive: caseInsensitive, automaton: patterns % 2 == 0)
            if matcher.linear != nil { covered += 1 }
            var texts = (0..<12).map { _ in generator.text() }
            texts.append(contentsOf: ["", "ab", "aB", "a\r\nb"])
            for text in texts {
                let expected = reference.firstMatch(in: text, options: [], range: NSRange(location: 0, length: text.utf16.count)) != nil
                let before = matcher.undecidedRecords
                let answer = matcher.matches(text)
                if matcher.undecidedRecords > before {
                    // ICU's C API gave up (on a pattern or [c] text left to it): not an answer
                    // to compare, and never the linear engine's doing.
                    undecided += 1
                    continue
                }
                comparisons += 1
                if answer != expected, mismatches.count < 20 {
                    mismatches.append("\(pattern.debugDescription) on \(text.debugDescription): ICU \(expected)")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        #expect(undecided * 100 <= comparisons, "\(undecided) undecided")
        // Most generated patterns must be the linear engine's, or this compares ICU with itself.
        #expect(covered * 10 >= patterns * 8, "\(covered) of \(patterns) patterns covered")
        #expect(comparisons >= 3000 * 15)
    }
}
