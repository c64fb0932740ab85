import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

/// `diag_contains`, the chunks' test for a literal run of a `MATCHES` (`SQLiteDialect`), gives
/// what `instr(text, needle) > 0` gives, on the same connection: 1, 0, or NULL.
@Suite struct ContainsFunctionTests {
    private func both(_ database: Database, _ text: SQLValueConvertible?, _ needle: SQLValueConvertible?) throws -> (Int64?, Int64?) {
        let statement = try database.prepare("SELECT diag_contains(?1, ?2), instr(?1, ?2) > 0")
        try statement.bind([text, needle])
        #expect(try statement.step())
        return (statement.optionalInt64(at: 0), statement.optionalInt64(at: 1))
    }

    /// Random texts and needles over a small alphabet (so that near misses abound: a first
    /// byte found where the rest differs, a match at the very end, a needle longer than the
    /// text), with multi-byte characters and NUL.
    @Test func randomTextsAgreeWithInstr() throws {
        let folder = try TemporaryDirectory()
        let database = try Database(path: folder.file("c.sqlite").path)
        var random = SeededPicker(state: 15)
        let pieces = ["a", "b", "ab", "/", "4", " ", "é", "日", "\u{0}", "batch "]
        var found = 0
        for _ in 0..<5_000 {
            let text = (0..<random.int(14)).map { _ in random.pick(pieces) }.joined()
            let needle = (0..<random.int(4)).map { _ in random.pick(pieces) }.joined()
            let (ours, sqlite) = try both(database, text, needle)
            #expect(ours == sqlite, "\(text.debugDescription) \(needle.debugDescription)")
            if ours == 1 { found += 1 }
        }
        #expect(found > 1_000 && found < 4_000, "both answers are tried: \(found) found")
    }

    @Test func nullEmptyBlobsAndNumbersAgreeWithInstr() throws {
        let folder = try TemporaryDirectory()
        let database = try Database(path: folder.file("c.sqlite").path)
        let cases: [(SQLValueConvertible?, SQLValueConvertible?)] = [
            (nil, "a"), ("a", nil), (nil, nil), ("", ""), ("abc", ""), ("", "a"), ("abc", "abcd"),
            ("abc", "c"), ("abc", "abc"), (Int64(12345), "34"), (Int64(12345), "35"), ("x1.5y", 1.5),
        ]
        for (text, needle) in cases {
            let (ours, sqlite) = try both(database, text, needle)
            #expect(ours == sqlite, "\(String(describing: text)) \(String(describing: needle))")
        }
        #expect(try both(database, nil, "a").0 == nil, "NULL, as instr's > 0")
        // Blobs, NUL and bytes that are not UTF-8 included.
        for (text, needle) in [("x'610062'", "x'0062'"), ("x'FFFE41'", "x'FE41'"), ("x'FFFE41'", "x'FE42'"), ("x''", "x''")] {
            let sql = "SELECT diag_contains(\(text), \(needle)) = (instr(\(text), \(needle)) > 0)"
            #expect(try database.scalarInt(sql) == 1, "\(text) \(needle)")
        }
    }

    /// In a WHERE clause, as the chunks' SQL uses it: a NULL text is neither kept by the test
    /// nor by its negation.
    @Test func aWhereClauseKeepsTheRowsThatHoldEveryRun() throws {
        let folder = try TemporaryDirectory()
        let database = try Database(path: folder.file("c.sqlite").path)
        try database.execute("CREATE TABLE t(m TEXT); INSERT INTO t VALUES ('batch 3/4 sent'), ('batch 3/5'), ('4/4 batch'), (NULL)")
        #expect(try database.scalarInt("SELECT count(*) FROM t WHERE diag_contains(m, 'batch ') AND diag_contains(m, '/4')") == 1)
        #expect(try database.scalarInt("SELECT count(*) FROM t WHERE NOT diag_contains(m, 'batch ')") == 1)
    }
}
