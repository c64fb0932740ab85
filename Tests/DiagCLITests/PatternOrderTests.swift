import Foundation
import Testing
import TestSupport

/// `diag show --patterns` (and `--pattern ID`) with journalctl's `-n N` and `-r`: the same
/// records, in the same order, as without the annotation.
@Suite struct PatternOrderTests {
    static func lines(_ arguments: [String], file: String) throws -> [String] {
        let output = try diag(["show", "--info", "--style", "ndjson"] + arguments + [file])
        #expect(output.status == 0, "\(output.stderr)")
        return output.stdout.split(separator: "\n").map(String.init)
    }

    static func patternIDs(_ lines: [String]) throws -> [String] {
        try lines.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["patternID"] as? String)
        }
    }

    /// The ndjson line without the annotation's two fields, to compare with plain `show`.
    static func withoutPattern(_ line: String) -> String {
        guard let range = line.range(of: ",\"patternID\":") else { return line }
        return String(line[..<range.lowerBound]) + "}"
    }

    @Test func linesAndReverseApplyToAnnotatedRecords() throws {
        let folder = try TemporaryDirectory("pattern-order")
        let file = folder.file("g.ndjson").path
        #expect(try diag(["generate", "--count", "400", "--seed", "9", "--output", file]).status == 0)
        let all = try Self.lines(["--patterns"], file: file)
        #expect(all.count > 20)
        #expect(try Self.lines(["--patterns", "-n", "5"], file: file) == Array(all.suffix(5)))
        #expect(try Self.lines(["--patterns", "--reverse"], file: file) == Array(all.reversed()))
        #expect(try Self.lines(["--patterns", "-n", "3", "-r"], file: file) == Array(all.suffix(3).reversed()))
        #expect(try Self.lines(["--patterns", "-n", "0"], file: file).isEmpty)
        // The records and their order are plain show's, with -n and -r alike.
        #expect(try Self.lines(["-n", "7", "-r"], file: file) == all.suffix(7).reversed().map(Self.withoutPattern))

        // -n counts the records a --pattern ID selects, not all of them.
        let ids = try Self.patternIDs(all)
        let common = try #require(Dictionary(grouping: ids, by: { $0 }).max { $0.value.count < $1.value.count }?.key)
        let selected = all.filter { $0.contains("\"patternID\":\"\(common)\"") }
        #expect(selected.count > 2)
        #expect(try Self.lines(["--patterns", "--pattern", common, "-n", "2"], file: file) == Array(selected.suffix(2)))
        #expect(try Self.lines(["--patterns", "--pattern", common, "-r"], file: file) == Array(selected.reversed()))
    }
}
