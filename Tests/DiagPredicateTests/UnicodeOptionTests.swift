import DiagModel
import Testing

@testable import DiagPredicate

@Suite("[c] [d] [n] and Unicode comparison (PREDICATES.md §5.3)")
struct UnicodeOptionTests {
    @Test func exactWithoutOptions() {
        #expect(!matches(#"message == "Café""#, record("Cafe\u{301}")), "no normalisation without options")
        #expect(matches(#"message == "Cafe\u0301""#, record("Cafe\u{301}")))
        #expect(!matches(#"message == "cafe""#, record("café")))
    }

    @Test func caseInsensitive() {
        #expect(matches(#"message ==[c] "HELLO""#, record("hello")))
        #expect(matches(#"message ==[c] "STRASSE""#, record("Straße")))
        #expect(matches(#"message ==[c] "file""#, record("\u{FB01}le")))
        #expect(matches(#"message ==[c] "ΣΑΣ""#, record("σας")))
        #expect(matches(#"message ==[c] "i\u0307""#, record("\u{130}")))
        #expect(!matches(#"message ==[c] "i""#, record("\u{131}")), "dotless i is not i")
        #expect(!matches(#"message ==[c] "abc""#, record("ＡＢＣ")), "no width folding")
        #expect(!matches(#"message ==[c] "café""#, record("CAFE")), "case-insensitive keeps diacritics")
        #expect(matches(#"message ==[c] "CAFÉ""#, record("cafe\u{301}")), "folding decomposes")
    }

    @Test func diacriticInsensitive() {
        #expect(matches(#"message ==[d] "Cafe""#, record("Café")))
        #expect(!matches(#"message ==[d] "cafe""#, record("Café")))
        #expect(matches(#"message ==[d] "uber""#, record("über")))
        #expect(matches(#"message ==[cd] "i""#, record("\u{130}")))
        #expect(!matches(#"message BEGINSWITH[cd] "oresund""#, record("Øresund")), "ø has no decomposition")
        #expect(!matches(#"message ==[d] "l""#, record("ł")))
        #expect(!matches(#"message ==[cd] "ae""#, record("æ")))
    }

    @Test func optionLettersInAnyOrderAndCase() {
        for options in ["[cd]", "[dc]", "[CD]", "[Dc]", "[cD]"] {
            #expect(matches("message ==\(options) \"cafe\"", record("CAFÉ")), "\(options)")
        }
        #expect(matches(#"message CONTAINS [cd] "cafe""#, record("un CAFÉ")), "a blank before [ is allowed")
        #expect(matches(#"message like[cd] "caf*""#, record("CAFÉ")))
        #expect(matches(#"message BEGINSWITH[c] "CA""#, record("café")))
        #expect(matches(#"message ENDSWITH[cd] "FE""#, record("café")))
        #expect(matches(#"message < [c] "B""#, record("a")))
        #expect(matches(#"message BETWEEN[c] {"A", "C"}"#, record("b")))
    }

    @Test func normalizedSupersedes() {
        #expect(!matches(#"message ==[n] "HELLO""#, record("hello")))
        #expect(!matches(#"message ==[cn] "HELLO""#, record("hello")))
        #expect(!matches(#"message ==[cdn] "cafe""#, record("Café")))
        #expect(matches(#"message ==[n] "hello""#, record("hello")))
        #expect(!matches(#"message MATCHES[cn] "HELLO""#, record("hello")))
    }

    @Test func optionsIgnoredOnNonStrings() {
        #expect(matches("processID ==[c] 123", record(processID: 123)))
        #expect(matches("messageType ==[cd] error", record(type: .error)))
    }

    @Test func noMatchInsideCombiningSequences() {
        #expect(!matches(#"message CONTAINS "Cafe""#, record("Cafe\u{301}")))
        #expect(!matches(#"message BEGINSWITH "Cafe""#, record("Cafe\u{301} au lait")))
        #expect(!matches(#"message ENDSWITH "\u0301""#, record("Cafe\u{301}")), "a match may not start at a mark")
        #expect(matches(#"message CONTAINS[d] "Cafe""#, record("Cafe\u{301}")))
        #expect(matches(#"message CONTAINS "Caf""#, record("Cafe\u{301}")))
        #expect(matches(#"message CONTAINS "Cafe\u0301""#, record("un Cafe\u{301}!")))
        #expect(!matches(#""Cafe" IN message"#, record("Cafe\u{301}")))
    }

    @Test func orderingByScalars() {
        #expect(matches(#"message > "Z""#, record("a")))
        #expect(matches(#"message < "é""#, record("z")))
        #expect(matches(#"message > "z""#, record("😀")))
    }

    @Test func sameResultForComposedAndDecomposedSourcesWithOptions() {
        for text in ["Café", "Cafe\u{301}"] {
            #expect(matches(#"message ==[d] "Cafe""#, record(text)))
            #expect(matches(#"message ==[cd] "CAFE""#, record(text)))
            #expect(matches(#"message ==[c] "CAFÉ""#, record(text)))
        }
    }
}
