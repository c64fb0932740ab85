import Testing

@testable import DiagPredicate

@Suite("Required literal runs of a MATCHES pattern")
struct RegexLiteralRunsTests {
    @Test func runsBetweenWildcards() {
        #expect(RegexLiteralRuns.required(".*token [0-9]+ bytes.*") == ["token ", " bytes"])
        #expect(RegexLiteralRuns.required("abc") == ["abc"])
        #expect(RegexLiteralRuns.required("a\\.b\\*c") == ["a.b*c"])
        #expect(RegexLiteralRuns.required("ab+c") == ["ab", "c"])
    }

    @Test func optionalElementsAreDropped() {
        #expect(RegexLiteralRuns.required("abc?d") == ["ab", "d"])
        #expect(RegexLiteralRuns.required("abc*d") == ["ab", "d"])
        #expect(RegexLiteralRuns.required("abc{0,2}d") == ["ab", "d"])
        #expect(RegexLiteralRuns.required("x(abc)?y") == ["x", "y"])
        #expect(RegexLiteralRuns.required("x[abc]y\\d+z") == ["x", "y", "z"])
    }

    @Test func unsureMeansNoRuns() {
        for pattern in ["a|b", "(?i)abc", "\\Qa.b\\E", "\\x41bc", "\\u0041", "\\p{L}abc", "a\\1", "[]a]bc", "(abc", "abc)", "a{2"] {
            #expect(RegexLiteralRuns.required(pattern).isEmpty, "\(pattern)")
        }
        #expect(RegexLiteralRuns.required("caf\u{E9}s") == ["caf", "s"], "non-ASCII ends a run")
    }

    @Test func prefilterNeverRejectsAMatch() throws {
        #expect(matches(#"message MATCHES[c] ".*kelvin.*""#, record("\u{212A}ELVIN")), "the Kelvin sign matches k case-insensitively")
        #expect(matches(#"message MATCHES[c] ".*TOKEN 7.*""#, record("a token 7 here")))
        #expect(!matches(#"message MATCHES ".*TOKEN 7.*""#, record("a token 7 here")))
        #expect(matches(#"message MATCHES ".*a\\+b.*""#, record("1 a+b 2")))
        #expect(matches(#"message MATCHES "(x|y)+z""#, record("xyxz")))
    }
}
