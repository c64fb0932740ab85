import DiagModel
import Testing

@testable import DiagPredicate

@Suite("Hostile predicates are errors, never crashes (PREDICATES.md §3.2)")
struct HostileInputTests {
    @Test func deepParenthesesAreAnError() throws {
        let text = String(repeating: "(", count: 10_000) + "TRUEPREDICATE" + String(repeating: ")", count: 10_000)
        let error = try #require(parseError(text))
        #expect(error.kind == .nestingTooDeep)
        #expect(error.column == PredicateParser.maximumDepth + 1)
    }

    @Test func deepNotIsAnError() throws {
        let text = String(repeating: "NOT ", count: 10_000) + "TRUEPREDICATE"
        #expect(try #require(parseError(text)).kind == .nestingTooDeep)
        let bang = String(repeating: "!", count: 10_000) + "TRUEPREDICATE"
        #expect(try #require(parseError(bang)).kind == .nestingTooDeep)
    }

    @Test func nestingUpToTheLimitWorks() throws {
        let depth = PredicateParser.maximumDepth
        let parentheses = String(repeating: "(", count: depth) + "process == 'apsd'" + String(repeating: ")", count: depth)
        #expect(matches(parentheses, record()))
        let nots = String(repeating: "NOT ", count: depth) + "process == 'apsd'"
        #expect(matches(nots, record()) == (depth % 2 == 0))
        // The normalised text of a deep predicate parses again.
        let predicate = try Predicate.parse(nots)
        #expect(try Predicate.parse(predicate.description).description == predicate.description)
        let mixed = String(repeating: "(NOT ", count: depth / 2) + "TRUEPREDICATE" + String(repeating: ")", count: depth / 2)
        #expect(matches(mixed, record()))
    }

    @Test func unbalancedDeepInput() {
        let text = String(repeating: "(", count: 200) + "TRUEPREDICATE"
        #expect(parseError(text)?.kind == .syntax)
        #expect(parseError(String(repeating: "{", count: 10_000))?.kind != nil)
    }

    @Test func flatChainsAreAccepted() throws {
        let terms = (0..<500).map { "processID == \($0)" }
        #expect(matches(terms.joined(separator: " OR "), record(processID: 499)))
        #expect(!matches(terms.joined(separator: " || "), record(processID: 500)))
        let conjuncts = (0..<500).map { "processID != \($0)" }
        #expect(matches(conjuncts.joined(separator: " AND "), record(processID: 500)))
        let long = (0..<5_000).map { "processID == \($0)" }.joined(separator: " OR ")
        #expect(matches(long, record(processID: 4_999)))
        let list = "processID IN {" + (0..<10_000).map(String.init).joined(separator: ", ") + "}"
        #expect(matches(list, record(processID: 9_999)))
    }

    @Test func hugeLiterals() {
        let big = String(repeating: "x", count: 1 << 20)
        #expect(matches("message == \"\(big)\"", record(big)))
        #expect(matches("message CONTAINS \"\(big.prefix(70_000))\"", record(big)))
        #expect(parseError("processID == " + String(repeating: "9", count: 100_000))?.kind == .invalidNumber)
        #expect(parseError("a" + String(repeating: "b", count: 100_000) + " == 1")?.kind == .unknownField)
    }

    @Test func nulBytesAndControlCharacters() {
        #expect(matches("message == \"a\u{0}b\"", record("a\u{0}b")))
        #expect(parseError("process == 'a' \u{0}")?.message.contains("U+0000") == true)
        #expect(parseError("process \u{7} == 'a'")?.message.contains("U+0007") == true)
        #expect(parseError("\u{0}")?.kind == .syntax)
    }

    @Test func invalidUTF8BecomesReplacementCharacters() {
        let bytes: [UInt8] = Array("message == \"".utf8) + [0xFF, 0xC3, 0x28] + Array("\"".utf8)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(matches(text, record(String(decoding: [0xFF, 0xC3, 0x28], as: UTF8.self))))
        let outside = String(decoding: [0xFF] + Array(" == 1".utf8), as: UTF8.self)
        #expect(parseError(outside)?.message.contains("U+FFFD") == true)
    }

    @Test func hostileEscapes() {
        #expect(parseError(#"message == "\"#)?.kind == .invalidString)
        #expect(parseError(#"message == "\u"#)?.kind == .invalidString)
        #expect(parseError(#"message == "\x"#)?.kind == .invalidString)
        #expect(parseError(#"message == "\uD800\"#)?.kind == .invalidString)
        #expect(matches(#"message == "\777""#, record("\\777")), "an octal value above 0o377 stays verbatim")
    }

    @Test func hostileRegexAndLike() {
        #expect(parseError(#"message MATCHES "\Qabc""#)?.kind == .invalidRegex)
        #expect(parseError(#"message MATCHES "(""#)?.kind == .invalidRegex)
        #expect(parseError(#"message MATCHES ")""#)?.kind == .invalidRegex)
        #expect(matches(#"message MATCHES "(a)\\1""#, record("aa")), "back-references work")
        #expect(matches("message LIKE \"\(String(repeating: "*?", count: 1_000))\"", record(String(repeating: "z", count: 1_000))))
        #expect(matches(#"message LIKE "\\""#, record("\\")), "a trailing backslash is literal")
    }
}
