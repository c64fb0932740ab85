import DiagModel
import Testing
import TestSupport

@testable import DiagPredicate

/// `MATCHES[c]`, `[d]` and `[cd]` fold as the rest of the predicate language does:
/// `message MATCHES[o] ".*\Qneedle\E.*"` selects exactly what `message CONTAINS[o] "needle"`
/// selects, over seeded random needles and messages with case pairs (`Σσς`, the Kelvin sign,
/// `ſ`, `İ`/`ı`) and, under `[d]`, combining marks. Two differences are ICU's and not tested
/// here: under `[c]` alone ICU does not normalise (`é` and `e` + U+0301 differ, CONTAINS[c]
/// compares them decomposed), and ICU cannot match part of a multi-scalar folding (`s` is not
/// in `ß` for MATCHES[c], it is for CONTAINS[c]); whole ones agree (`ß` and `SS`).
@Suite struct MatchesFoldingAgreementTests {
    static let casePieces = ["a", "A", "k", "K", "\u{212A}", "s", "S", "\u{17F}", "\u{3C3}", "\u{3A3}", "\u{3C2}", "\u{E9}", "\u{C9}",
                             "\u{131}", "I", "i", " ", "-", "1"]
    static let markPieces = casePieces + ["e\u{301}", "\u{301}", "\u{130}", "o\u{308}", "\u{F6}", "\u{D6}", "n\u{303}"]

    private static func selects(_ predicate: String, _ message: String) throws -> Bool {
        try Predicate.parse(predicate).evaluate(LogRecord(timestamp: 0, eventMessage: message))
    }

    @Test(arguments: ["c", "d", "cd"])
    func matchesAgreesWithContains(options: String) throws {
        var picker = SeededPicker(state: UInt64(options.utf8.reduce(7) { $0 &* 31 &+ UInt64($1) }))
        let pieces = options == "c" ? Self.casePieces : Self.markPieces
        var selected = 0
        for _ in 0..<400 {
            // The needle starts with a letter: one of marks alone folds to "" under [d], which
            // CONTAINS never finds and `.*.*` always matches.
            let needle = picker.pick(Self.casePieces) + (0..<picker.int(3)).map { _ in picker.pick(pieces) }.joined()
            let message = (0..<picker.int(8)).map { _ in picker.pick(pieces) }.joined() + (picker.int(3) == 0 ? needle.uppercased() : "")
            let contains = try Self.selects("eventMessage CONTAINS[\(options)] \"\(needle)\"", message)
            let matches = try Self.selects("eventMessage MATCHES[\(options)] \".*\\\\Q\(needle)\\\\E.*\"", message)
            #expect(matches == contains, "[\(options)] \(needle.debugDescription) in \(message.debugDescription)")
            if contains { selected += 1 }
        }
        #expect(selected >= 40, "the texts must hold their needle often enough to test both answers")
    }

    @Test func wholeMultiScalarFoldingsAgree() throws {
        for (needle, message) in [("\u{DF}", "STRASSE"), ("ss", "stra\u{DF}e"), ("STRASSE", "Stra\u{DF}e")] {
            #expect(try Self.selects("eventMessage CONTAINS[c] \"\(needle)\"", message))
            #expect(try Self.selects("eventMessage MATCHES[c] \".*\(needle).*\"", message), "\(needle) in \(message)")
        }
    }
}
