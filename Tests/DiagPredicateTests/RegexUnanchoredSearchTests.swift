import Testing

@testable import DiagPredicate

/// `.*X.*` is searched as X anywhere: the two forms must agree on every subject, and any pattern
/// where they might not keeps the whole-string match.
@Suite("MATCHES .*X.* as an unanchored search")
struct RegexUnanchoredSearchTests {
    @Test func coreIsTakenOnlyWhereSurelyEquivalent() {
        #expect(RegexMatcher.unanchoredCore(#".*\d{5}\D.*"#) == #"\d{5}\D"#)
        #expect(RegexMatcher.unanchoredCore(".*token [0-9]+ bytes.*") == "token [0-9]+ bytes")
        #expect(RegexMatcher.unanchoredCore(#".*a\\.*"#) == #"a\\"#, "an escaped backslash before the last .*")
        for pattern in [
            ".*a|b.*", ".*(?-s)a.*", ".*(?=a)b.*", #".*\Qa.*"#, ".*?a.*", ".*+a.*", ".*{2}a.*", ".**a.*",
            #".*a\.*"#, "a.*", ".*a", ".*.*", "x.*a.*", ".*a.*?", ".*",
        ] {
            #expect(RegexMatcher.unanchoredCore(pattern) == nil, "\(pattern)")
        }
    }

    @Test func searchAgreesWithTheWholeStringMatch() throws {
        let patterns = [
            #".*\d{5}\D.*"#, ".*token [0-9]+ bytes.*", #".*\bfoo\b.*"#, ".*^ab$.*", #".*(a)b\1.*"#, #".*\Afoo.*"#,
            #".*bar\z.*"#, ".*[.*]x.*", #".*a\\.*"#, ".*é.*", ".*Straße.*",
        ]
        let subjects = [
            "", "12345x", "a12345", "123456", "x 12345 y", "line1\n12345\nend", "token 42 bytes", "tokens 42 bytes",
            "foo", "a foo b", "afoo", "ab", "x\nab\ny", "abab", "aba", "foo bar", "bar", "bar\n", "*x", ".x", "x",
            "a\\", "a\\b", "café", "STRASSE", "straße", "Straße!",
        ]
        for caseInsensitive in [false, true] {
            for pattern in patterns {
                let matcher = try RegexMatcher(pattern: pattern, caseInsensitive: caseInsensitive)
                for subject in subjects {
                    #expect(matcher.matches(subject) == matcher.matchesAnchored(subject), "\(pattern) on \(subject.debugDescription), [c]: \(caseInsensitive)")
                }
            }
        }
        #expect(try RegexMatcher(pattern: #".*\d{5}\D.*"#, caseInsensitive: false).matches("id 12345:"))
        #expect(try !RegexMatcher(pattern: #".*\d{5}\D.*"#, caseInsensitive: false).matches("id 1234:"))
    }
}
