import DiagModel
import Foundation
import Testing

@testable import DiagPredicate

/// The linear engine: the patterns that made ICU give up, answered right and in linear time;
/// the size bound; ICU's giving up on what is left to it, counted instead of answered "no".
@Suite("MATCHES on the linear engine", .serialized)
struct LinearRegexTests {
    private static func linear(_ pattern: String, caseInsensitive: Bool = false) throws -> LinearRegexMachine {
        let node = try #require(LinearRegexParser.parse(pattern, caseInsensitive: caseInsensitive), "\(pattern) is covered")
        return LinearRegexMachine(program: try LinearRegexProgram(node))
    }

    private static func run(_ machine: LinearRegexMachine, _ text: String) -> Bool {
        var text = text
        return text.withUTF8 { machine.matches($0) }
    }

    @Test func theIssuePatternMatches() throws {
        let subject = String(repeating: "a", count: 25) + "b"
        let matcher = try RegexMatcher(pattern: "(a+)+$|a+b", caseInsensitive: false)
        #expect(matcher.linear != nil)
        #expect(matcher.matches(subject))
        #expect(!matcher.matches(String(repeating: "a", count: 25) + "c"))
        let predicate = try Predicate.parse(#"eventMessage MATCHES "(a+)+$|a+b""#)
        #expect(predicate.evaluate(LogRecord(timestamp: 0, eventMessage: subject)))
        #expect(matcher.undecidedRecords == 0)
    }

    /// Each of these backtracks exponentially in ICU on the long text; here each is one pass.
    @Test(arguments: [
        ("(a|aa)*c", "a", "c"), ("(x+x+)+y", "x", "y"), ("(a+)+$|a+b", "a", "b"), ("(a*)*b", "a", "b"),
        ("(\\w+\\s?)+!", "word ", "!"), ("(.*a){12}", "a", ""), ("(a|a?)+z", "a", "z"),
    ])
    func catastrophicPatternsAnswerRight(pattern: String, unit: String, ending: String) throws {
        let machine = try Self.linear(pattern)
        let long = String(repeating: unit, count: 5000)
        #expect(Self.run(machine, long + ending), "\(pattern) on \(unit)×5000 + \(ending)")
        #expect(!Self.run(machine, long + "#"), "\(pattern) on \(unit)×5000 + #")
    }

    @Test func countedRepetitionsAreBounded() throws {
        #expect(try Self.run(Self.linear("a{3,5}"), "aaaa"))
        #expect(try !Self.run(Self.linear("a{3,5}"), "aaaaaa"))
        #expect(try Self.run(Self.linear("(ab){2,}"), "ababab"))
        for pattern in ["a{20000}", "(a{100}){101}", "[a-z]{3,10001}"] {
            do {
                _ = try Predicate.parse("eventMessage MATCHES \"\(pattern)\"")
                Issue.record("\(pattern) was accepted")
            } catch {
                #expect(error.kind == .invalidRegex)
                #expect(error.message.contains("too large"), "\(error.message)")
            }
        }
    }

    @Test func whatIsLeftToICU() {
        for pattern in ["(a)\\1", "a(?=b)b", "(?<=a)b", "(?>a+)b", "a*+b", "\\p{L}+", "(?i)a", "[[:alpha:]]", "[a-z&&[^x]]", "\\X", "\\R"] {
            #expect(LinearRegexParser.parse(pattern, caseInsensitive: false) == nil, "\(pattern)")
        }
        // Under [c] a literal that folds to several scalars is ICU's: it matches "ss".
        #expect(LinearRegexParser.parse("stra\u{DF}e", caseInsensitive: true) == nil)
        #expect(LinearRegexParser.parse("stra\u{DF}e", caseInsensitive: false) != nil)
    }

    /// `(a*)*\1b` backtracks exponentially in ICU and has a backreference, so it stays ICU's:
    /// ICU gives up (checked first), and the record is counted, not answered "no".
    @Test func iCUGivingUpIsCounted() throws {
        _ = UndecidedMatches.take()
        let pattern = #"(a*)*\1b"#
        let long = String(repeating: "a", count: 40)
        let icu = try ICURegex(pattern: "\\A(?:" + pattern + ")\\z", caseInsensitive: false)
        guard case .undecided(let reason) = icu.find(long) else {
            Issue.record("ICU decided \(pattern) on a×40")
            return
        }
        #expect(reason == "U_REGEX_TIME_OUT" || reason == "U_REGEX_STACK_OVERFLOW")
        #expect(icu.find("aab") == .match)
        let matcher = try RegexMatcher(pattern: pattern, caseInsensitive: false)
        #expect(matcher.linear == nil)
        #expect(!matcher.matches(long))
        #expect(!matcher.matches(long + "x"))
        #expect(matcher.matches("aab"))
        #expect(matcher.undecidedRecords == 2)
        // The process-wide count the command reports (other suites may add their own patterns).
        let entries = UndecidedMatches.take().filter { $0.pattern == pattern }
        #expect(entries == [UndecidedMatches.Entry(pattern: pattern, reason: reason, records: 2)])
        #expect(UndecidedMatches.message(entries).contains("on 2 records"))
    }

    @Test func caseInsensitiveTextWithMultiScalarFoldingsGoesToICU() throws {
        let matcher = try RegexMatcher(pattern: "stra(ss|x)e", caseInsensitive: true)
        #expect(matcher.linear != nil)
        #expect(matcher.matches("STRASSE"))
        #expect(matcher.matches("Stra\u{DF}e"), "ICU folds ß to ss")
        #expect(try !RegexMatcher(pattern: "stra(ss|x)e", caseInsensitive: false).matches("Stra\u{DF}e"))
        #expect(matcher.undecidedRecords == 0)
    }

    @Test func unicodeClassesAndBoundaries() throws {
        #expect(try Self.run(Self.linear("\\d+"), "\u{663}\u{664}"))
        #expect(try Self.run(Self.linear("\\w+"), "caf\u{E9}_e\u{301}"))
        #expect(try Self.run(Self.linear("\\s"), "\u{85}"))
        #expect(try !Self.run(Self.linear("\\s"), "\u{200B}"))
        #expect(try !Self.run(Self.linear("a\\b\u{301}"), "a\u{301}"), "no boundary before a combining mark")
        #expect(try Self.run(Self.linear(".\\B."), "ab"))
        #expect(try !Self.run(Self.linear(".\\n"), "\r\n"), "ICU's . takes CR LF as one")
        #expect(try Self.run(Self.linear("."), "\r\n"))
        #expect(try Self.run(Self.linear("a$\\r\\n"), "a\r\n"))
        #expect(try !Self.run(Self.linear("a\\r$\\n"), "a\r\n"), "no line end between CR and LF")
        #expect(try Self.run(Self.linear("a\\r^\\n"), "a\r\n"), "but a line start")
        #expect(try Self.run(Self.linear("\\Qa.b\\E+"), "a.bbb"))
        #expect(try Self.run(Self.linear("[\\x{41}-\\x{43}]\\u0044\\x45\\0106"), "BDEF"))
    }
}
