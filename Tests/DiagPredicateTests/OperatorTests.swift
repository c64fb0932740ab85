import DiagModel
import Testing

@testable import DiagPredicate

@Suite("Comparison operators (PREDICATES.md §4, §5.1, §7)")
struct OperatorTests {
    let apsd = record("Connection established to courier 17", process: "apsd", processID: 120)

    @Test func equalityInEveryForm() {
        #expect(matches(#"process == "apsd""#, apsd))
        #expect(matches(#"process = "apsd""#, apsd))
        #expect(matches(#"'apsd' == process"#, apsd))
        #expect(!matches(#"process == "APSD""#, apsd))
        #expect(matches("processID == 120", apsd))
        #expect(matches("processID == 120.0", apsd))
        #expect(!matches("processID == 120.5", apsd))
        #expect(!matches(#"processID == "120""#, apsd), "no coercion between strings and numbers")
    }

    @Test func inequalityInEveryForm() {
        #expect(matches(#"process != "dasd""#, apsd))
        #expect(matches(#"process <> "dasd""#, apsd))
        #expect(!matches(#"process != "apsd""#, apsd))
        #expect(matches(#"subsystem != "x""#, record(subsystem: nil)), "a missing field is != every value")
        #expect(!matches(#"subsystem == "x""#, record(subsystem: nil)))
    }

    @Test func orderingInEveryForm() {
        #expect(matches("processID < 121", apsd))
        #expect(matches("processID <= 120", apsd))
        #expect(matches("processID =< 120", apsd))
        #expect(matches("processID > 119", apsd))
        #expect(matches("processID >= 120", apsd))
        #expect(matches("processID => 120", apsd))
        #expect(!matches("processID > 120", apsd))
        #expect(matches(#"process > "APSD""#, apsd), "strings order by scalar value")
        #expect(matches(#"process < "apse""#, apsd))
        #expect(!matches("processID < 5", record(processID: nil)), "nil never orders")
        #expect(!matches(#"processID < "500""#, apsd), "type mismatch is false")
    }

    @Test func between() {
        #expect(matches("processID BETWEEN {100, 120}", apsd))
        #expect(matches("processID between {120, 200}", apsd))
        #expect(!matches("processID BETWEEN {121, 200}", apsd))
        #expect(!matches("processID BETWEEN {200, 100}", apsd), "bounds are not reordered")
        #expect(matches(#"process BETWEEN {"a", "b"}"#, apsd))
        #expect(!matches("processID BETWEEN {1, 2}", record(processID: nil)))
    }

    @Test func inAggregateAndString() {
        #expect(matches(#"process IN {"dasd", "apsd"}"#, apsd))
        #expect(!matches(#"process IN {"dasd", "cloudd"}"#, apsd))
        #expect(!matches("process IN {}", apsd))
        #expect(matches("processID IN {1, 120, 3}", apsd))
        #expect(matches(#"process IN[c] {"APSD", "DASD"}"#, apsd))
        #expect(matches(#""xyz" IN "wxyz""#, apsd))
        #expect(matches(#"process IN "the apsd daemon""#, apsd))
        #expect(!matches(#"process IN "the dasd daemon""#, apsd))
        #expect(matches(#"NOT (process IN {"dasd"})"#, apsd))
        #expect(matches(#"NOT process IN {"dasd"}"#, apsd))
        #expect(matches(#"subsystem IN {"a", nil}"#, record(subsystem: nil)))
        #expect(matches(#""apsd" IN {process, sender}"#, apsd), "aggregates may hold key names")
    }

    @Test func stringOperators() {
        #expect(matches(#"message BEGINSWITH "Connection""#, apsd))
        #expect(!matches(#"message BEGINSWITH "connection""#, apsd))
        #expect(matches(#"message ENDSWITH "17""#, apsd))
        #expect(matches(#"message CONTAINS "courier""#, apsd))
        #expect(!matches(#"message CONTAINS "Courier""#, apsd))
        #expect(!matches(#"message CONTAINS """#, apsd), "an empty needle is not found")
        #expect(!matches(#"message BEGINSWITH """#, apsd))
        #expect(!matches(#"subsystem CONTAINS "a""#, record(subsystem: nil)))
        #expect(!matches(#"processID CONTAINS "1""#, apsd), "string operators on numbers are false")
        #expect(matches(#"{"a", "apsd"} CONTAINS process"#, apsd), "CONTAINS on an aggregate")
    }

    @Test func like() {
        #expect(matches(#"process LIKE "a*""#, apsd))
        #expect(matches(#"process LIKE "?psd""#, apsd))
        #expect(matches(#"process LIKE "*""#, apsd))
        #expect(!matches(#"process LIKE "a?d""#, apsd))
        #expect(matches(#"process LIKE[c] "A*D""#, apsd))
        #expect(matches(#"message LIKE "*courier*""#, apsd))
        #expect(matches(#"message LIKE "a*b""#, record("a\nline\nb")), "* crosses line breaks")
        #expect(matches(#"message LIKE "a\*b""#, record("a*b")))
        #expect(!matches(#"message LIKE "a\*b""#, record("axxb")))
        #expect(matches(#"message LIKE "a\?b""#, record("a?b")))
        #expect(matches(#"message LIKE "a\\\\b""#, record("a\\b")))
        #expect(matches(#"message LIKE "a.+[x](y)^$|b""#, record("a.+[x](y)^$|b")), "regex characters are literal")
        #expect(!matches(#"message LIKE "a.c""#, record("abc")))
        #expect(matches(#"message LIKE "caf?""#, record("café")), "? is one character")
        #expect(matches(#"message LIKE[c] "CAF?""#, record("cafe\u{301}")), "? is one character after folding too")
        #expect(matches(#"message LIKE "*a*a*a*a*a*a*a*a*b""#, record(String(repeating: "a", count: 2000) + "b")))
        #expect(!matches(#"message LIKE "*a*a*a*a*a*a*a*a*b""#, record(String(repeating: "a", count: 2000))))
    }

    @Test func matchesIsWholeString() {
        #expect(!matches(#"process MATCHES "ps""#, apsd))
        #expect(matches(#"process MATCHES "a.s.""#, apsd))
        #expect(!matches(#"process MATCHES "ap|zz""#, apsd), "the whole alternation must cover the string")
        #expect(matches(#"process MATCHES "ap|apsd""#, apsd))
        #expect(matches(#"process MATCHES "a|ap|aps|apsd""#, apsd))
        #expect(matches(#"message MATCHES '\\d{10}|\\d{9}[Xx]'"#, record("123456789X")))
        #expect(!matches(#"message MATCHES '\\d{10}|\\d{9}[Xx]'"#, record("1234567890X")))
        #expect(matches(#"message MATCHES "\d+""#, record("2026")), "an unknown escape reaches the regex engine")
        #expect(matches(#"message MATCHES '.*(CAT){3,}(?!CA).*'"#, record("xCATCATCATx")))
        #expect(matches(#"process MATCHES[c] "APSD""#, apsd))
        #expect(!matches(#"process MATCHES "APSD""#, apsd))
    }

    @Test func matchesDotAllAndLineAnchors() {
        #expect(matches(#"message MATCHES "a.b""#, record("a\nb")), ". matches a line break")
        #expect(matches(#"message MATCHES "first$.*^second""#, record("first\nsecond")), "^ and $ match at lines")
        #expect(!matches(#"message MATCHES "first$""#, record("first\nsecond")), "the whole string must still match")
    }

    @Test func matchesWithDiacriticOption() {
        #expect(matches(#"message MATCHES[d] "cafe.*""#, record("café au lait")))
        #expect(matches(#"message MATCHES[cd] "CAFÉ.*""#, record("cafe au lait")))
        #expect(!matches(#"message MATCHES "cafe.*""#, record("café au lait")))
    }

    @Test func matchesOnAFieldPattern() {
        // A pattern read from a field is compiled per record; an invalid one matches nothing.
        #expect(matches("process MATCHES process", apsd))
        #expect(!matches("message MATCHES process", record("x", process: "(")))
    }
}
