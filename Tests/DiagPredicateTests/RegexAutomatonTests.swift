import Foundation
import Testing

@testable import DiagPredicate

/// The byte automaton must answer exactly as NSRegularExpression's whole-string match does,
/// wherever it answers at all.
@Suite("MATCHES through the byte automaton")
struct RegexAutomatonTests {
    private static func engineMatches(_ pattern: String, _ subject: String, caseInsensitive: Bool) throws -> Bool {
        var options: NSRegularExpression.Options = [.dotMatchesLineSeparators, .anchorsMatchLines]
        if caseInsensitive { options.insert(.caseInsensitive) }
        let expression = try NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z", options: options)
        return expression.firstMatch(in: subject, options: [], range: NSRange(location: 0, length: subject.utf16.count)) != nil
    }

    private static func automaton(_ pattern: String, caseInsensitive: Bool) -> RegexAutomaton? {
        var options: NSRegularExpression.Options = [.dotMatchesLineSeparators, .anchorsMatchLines]
        if caseInsensitive { options.insert(.caseInsensitive) }
        return RegexAutomaton(pattern: pattern, options: options)
    }

    private static func run(_ automaton: RegexAutomaton, _ subject: String) -> Bool? {
        var subject = subject
        return subject.withUTF8 { automaton.matches($0) }
    }

    static let patterns = [
        #".*\d{5}\D.*"#, #"\d+"#, #"\d{2,4}"#, #"\d{3,}x?"#, "a*b+c?", "a*?b+?c??", "[a-c]+[^a-c]*", #"[\d_.-]+"#,
        #"\w+\s\W*"#, #"\S+ \S+"#, ".*", ".+", ".?", "abc", "ABC", "a.c", #"a\.c"#, #"\*\+\?\(\)\[\]\{\}\|\^\$\\"#,
        #"\t\n.*"#, "x{0}y", "x{2}", "x{1,1}", "[A-Z][a-z]*", "[^ ]*", #".*token [0-9]+ bytes.*"#,
        #"Queue has \d+ pending.*"#, "k", "s+", #"[\]]+"#, #"[\-a]+"#, "[a-]+", "[-a]+", "a b", "#", "é+", ".…",
        "[^é]*", "[日本]+語", #"\S\s\S"#, #"\w{3}"#, "ǅ", "ﬁ",
    ]

    static let subjects = [
        "", "a", "abc", "ABC", "aBc", "a.c", "a-c", "12345x", "a12345b", "123456", "1234", "12", "123", "1234x", "x",
        "y", "xx", "xxy", "aaabbb", "bbbc", "ac", "Queue has 12 pending activities", "token 42 bytes", "tokens 42 bytes",
        "\t\nrest", "\tX", "word \u{1}", "word  ", "K", "k", "s", "S", "ss", "]]", "-a-", "a b", "#", "*+?()[]{}|^$\\",
        "line\r\nnext", "\r", "café", "caf\u{E9}12345 ", "١٢٣٤٥x", "Kelvin \u{212A}", "ſ", "straße", "\u{0}12345\u{0}",
        "Z", "Zebra", "zebra", "a{,3}", "aaa", "_.-9", " ", "x y", "日本語 12345!", "e\u{301}", "\u{1F600}12345x",
        "\u{A0}x", "\u{2003}", "Ⅻ", "𝟙𝟚𝟛𝟜𝟝z", "…", "ǅ", "ﬁ",
    ]

    @Test func agreesWithTheEngineOnEveryPatternAndSubject() throws {
        var decided = 0
        for caseInsensitive in [false, true] {
            for pattern in Self.patterns {
                let automaton = Self.automaton(pattern, caseInsensitive: caseInsensitive)
                let matcher = try #require(try? RegexMatcher(pattern: pattern, caseInsensitive: caseInsensitive), "\(pattern) compiles")
                for subject in Self.subjects {
                    let expected = try Self.engineMatches(pattern, subject, caseInsensitive: caseInsensitive)
                    #expect(matcher.matches(subject) == expected, "\(pattern) on \(subject.debugDescription), [c] \(caseInsensitive)")
                    if let automaton, let answer = Self.run(automaton, subject) {
                        decided += 1
                        #expect(answer == expected, "automaton: \(pattern) on \(subject.debugDescription), [c] \(caseInsensitive)")
                    }
                }
            }
        }
        #expect(decided > 3000, "the automaton decided \(decided) cases: most of the ASCII ones")
    }

    /// Random patterns of the automaton's kind over a small alphabet, against random subjects.
    @Test func agreesWithTheEngineOnRandomPatterns() throws {
        var random = PlannerTestRecords.Generator(state: 0x5EED)
        let atoms = ["a", "b", "A", ".", #"\d"#, #"\D"#, #"\w"#, #"\W"#, #"\s"#, #"\S"#, "[ab]", "[^a]", "[0-9x]", " ", "1", #"\."#, "-"]
        let quantifiers = ["", "", "", "*", "+", "?", "{2}", "{1,3}", "{0,2}", "{2,}", "*?", "+?", "??"]
        let letters: [Character] = ["a", "b", "A", "B", "1", "2", " ", ".", "-", "_", "\n", "x"]
        var checked = 0
        for round in 0..<600 {
            var pattern = ""
            for _ in 0..<random.int(5) + 1 {
                pattern += atoms[random.int(atoms.count)] + quantifiers[random.int(quantifiers.count)]
            }
            let caseInsensitive = round % 3 == 0
            let automaton = try #require(Self.automaton(pattern, caseInsensitive: caseInsensitive), "\(pattern) should be of the automaton's kind")
            for _ in 0..<12 {
                let subject = String((0..<random.int(8)).map { _ in letters[random.int(letters.count)] })
                let expected = try Self.engineMatches(pattern, subject, caseInsensitive: caseInsensitive)
                #expect(Self.run(automaton, subject) == expected, "\(pattern) on \(subject.debugDescription), [c] \(caseInsensitive)")
                checked += 1
            }
        }
        #expect(checked == 7200)
    }

    @Test func leavesToTheEngineWhatItCannotDecide() throws {
        let automaton = try #require(Self.automaton(".*b", caseInsensitive: false))
        #expect(Self.run(automaton, "café b") == true)
        #expect(Self.run(automaton, "a\r\nb") == nil)
        #expect(Self.run(automaton, "plain") == false)
        let rest = try #require(Self.automaton(#".*\d{5}\D.*"#, caseInsensitive: false))
        #expect(Self.run(rest, "id 12345: \r\n") == true, "a trailing .* takes whatever is left, CR included")
        #expect(try Self.engineMatches(#".*\d{5}\D.*"#, "id 12345: \r\n", caseInsensitive: false))
        #expect(Self.run(rest, "id 1234: \r\n") == nil)
        let folded = try #require(Self.automaton("s+", caseInsensitive: true))
        #expect(Self.run(folded, "ß") == nil, "past ASCII under [c]: ICU folds ß to ss")
        #expect(Self.run(folded, "SsS") == true)
        let digits = try #require(Self.automaton(#"\d+"#, caseInsensitive: false))
        #expect(Self.run(digits, "x \r") == nil, "a CR after a dead end still goes to the engine")
        #expect(Self.run(digits, "١٢٣") == true, "ICU's \\d takes every decimal digit")
        // Past so many distinct characters, the rest go to the engine.
        let any = try #require(Self.automaton(".+!", caseInsensitive: false))
        let many = String(String.UnicodeScalarView((0x4E00..<(0x4E00 + RegexAutomaton.rememberedLimit)).compactMap(Unicode.Scalar.init)))
        #expect(Self.run(any, many + "!") == true)
        #expect(Self.run(any, "\u{1F600}!") == nil)
        #expect(Self.run(any, "\u{4E00}!") == true, "what it remembers it still decides")
        for pattern in [
            "(ab)", "a|b", "^a", "a$", #"\bword"#, #"(?i)a"#, #"\Qa\E"#, #"\x41"#, #"\u0041"#, #"\1"#, "a*+", "a++", "a?+",
            "a{2}+", #"\p{L}"#, "[[a]]", "[a&&b]", "[:alpha:]", "a**", #"\N{LATIN SMALL LETTER A}"#, #"\X"#, #"\R"#, "a{99}",
        ] {
            #expect(Self.automaton(pattern, caseInsensitive: false) == nil, "\(pattern)")
        }
        #expect(Self.automaton("é+", caseInsensitive: true) == nil, "non-ASCII patterns fold to several characters under [c]")
        #expect(Self.automaton("é+", caseInsensitive: false) != nil)
        #expect(Self.automaton(String(repeating: "a", count: 64), caseInsensitive: false) == nil, "past 63 positions")
        #expect(Self.automaton(String(repeating: "a", count: 63), caseInsensitive: false) != nil)
    }
}
