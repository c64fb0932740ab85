import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

/// `diag_folded_contains`, the unindexed scan's message search, against folding in Swift.
@Suite struct FoldedContainsFunctionTests {
    private func database(_ folder: TemporaryDirectory) throws -> Database {
        try Database(path: folder.file("f.sqlite").path)
    }

    private func sqlAnswer(_ database: Database, _ message: SQLValueConvertible?, _ needle: String) throws -> Int64? {
        try database.scalarInt("SELECT diag_folded_contains(?, ?)", [message, needle])
    }

    private func truth(_ message: String, _ needle: String) -> Bool {
        let folded = MessageSearchIndex.fold(needle)
        return folded.isEmpty || Array(MessageSearchIndex.fold(message).utf8).firstRange(of: Array(folded.utf8)) != nil
    }

    @Test func asciiMessagesAreSearchedExactlyWithoutRegardToCase() throws {
        let folder = try TemporaryDirectory()
        let database = try database(folder)
        var random = SeededPicker(state: 42)
        let alphabet = Array("abcAB Cz-_[]@^`{~".utf8)
        for _ in 0..<3_000 {
            let message = String(decoding: (0..<random.int(25)).map { _ in random.pick(alphabet) }, as: UTF8.self)
            let needle = String(decoding: (0..<1 + random.int(3)).map { _ in random.pick(alphabet) }, as: UTF8.self)
            let folded = MessageSearchIndex.fold(needle)
            let expected = message.lowercased().contains(folded)
            #expect(try sqlAnswer(database, message, folded) == (expected ? 1 : 0), "\(message.debugDescription) \(folded.debugDescription)")
        }
    }

    /// Messages mixing ASCII with characters that fold into ASCII (`ﬁ`, the Kelvin sign, `ß`,
    /// `É`), marks, `…` and NUL, against folding the whole message: an ASCII needle is searched
    /// among the ASCII bytes in place, and a message is folded only when it is not found there.
    @Test func mixedMessagesAgreeWithFoldingTheWholeMessage() throws {
        let folder = try TemporaryDirectory()
        let database = try database(folder)
        var random = SeededPicker(state: 7)
        let pieces = ["a", "b", "K", "k", "s", " ", "fi", "ﬁ", "\u{212A}", "ß", "É", "e\u{301}", "\u{301}", "\u{20DD}", "…", "\u{0}", "日"]
        let needles = ["ab", "k", "kb", "fi", "ss", "e", "a b", "sk", "é", "…", "ﬁk"]
        var found = 0
        for _ in 0..<4_000 {
            let message = (0..<random.int(12)).map { _ in random.pick(pieces) }.joined()
            let needle = random.pick(needles)
            let expected = truth(message, needle)
            if expected { found += 1 }
            #expect(try sqlAnswer(database, message, MessageSearchIndex.fold(needle)) == (expected ? 1 : 0),
                    "\(message.debugDescription) \(needle.debugDescription)")
        }
        #expect(found > 500 && found < 3_500, "both answers are tried: \(found) found")
    }

    @Test func otherMessagesAreFoldedForCaseAndDiacritics() throws {
        let folder = try TemporaryDirectory()
        let database = try database(folder)
        let cases: [(String, String, Bool)] = [
            ("Café ÉCOLE straße opened", "cafe ecole", true),
            ("Café ÉCOLE straße opened", "strasse", true),
            ("Ångström sync finished", "angstrom sync", true),
            ("Ångström sync finished", "angstroms", false),
            ("naïve \u{0}nul inside", "nul ins", true),
            ("plain ascii with a \u{0} nul", "a \u{0} nul", true),
            ("ascii then ü at the end", "then u", true),
            ("ascii then ü at the end", "missing", false),
            ("日本語のログ message", "のロ", true),
        ]
        for (message, needle, expected) in cases {
            let folded = MessageSearchIndex.fold(needle)
            #expect(try sqlAnswer(database, message, folded) == (expected ? 1 : 0), "\(message) / \(needle)")
            #expect(truth(message, needle) == expected, "the case itself: \(message) / \(needle)")
        }
    }

    @Test func bytesThatAreNotUTF8AreReadAsTheReplacementCharacter() throws {
        let folder = try TemporaryDirectory()
        let database = try database(folder)
        try database.execute("CREATE TABLE m (t TEXT)")
        // 0xFF is no UTF-8: the text around it is still searched.
        try database.execute("INSERT INTO m VALUES (CAST(X'4142FF636465' AS TEXT))")
        #expect(try database.scalarInt("SELECT diag_folded_contains(t, 'cde') FROM m") == 1)
        #expect(try database.scalarInt("SELECT diag_folded_contains(t, 'ab') FROM m") == 1)
        #expect(try database.scalarInt("SELECT diag_folded_contains(t, 'xyz') FROM m") == 0)
    }

    @Test func nullAndEmptyArguments() throws {
        let folder = try TemporaryDirectory()
        let database = try database(folder)
        #expect(try sqlAnswer(database, nil, "x") == 0)
        #expect(try database.scalarInt("SELECT diag_folded_contains('abc', NULL)") == 0)
        #expect(try sqlAnswer(database, "anything", "") == 1)
        #expect(try sqlAnswer(database, "", "a") == 0)
        #expect(try sqlAnswer(database, "ab", "abc") == 0)
    }

    /// Untrusted chunks are read through connections with SQLite's defences on: the function
    /// is there too, since the scan needs it.
    @Test func theFunctionWorksOnAnUntrustedConnection() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("u.sqlite").path
        let writer = try Database(path: path)
        try writer.execute("CREATE TABLE m (t TEXT); INSERT INTO m VALUES ('Hello World')")
        let reader = try Database.openUntrusted(path: path)
        #expect(try reader.scalarInt("SELECT count(*) FROM m WHERE diag_folded_contains(t, 'lo wo')") == 1)
    }
}
