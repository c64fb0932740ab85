import DiagFleet
import DiagModel
import DiagPredicate
import DiagQuery
import Foundation
import Testing
import TestSupport

/// The SQL text both dialects get for every predicate case, compared with `Expected/plannedSQL.txt`
/// (written by the planner before it built a tree, issue 14 item 4): SQLite's text decides which
/// index a chunk uses and how deep SQLite's parser nests, so it must not drift unnoticed; the
/// PostgreSQL text is the fleet's. A change here is either a fix (then update the file and say
/// why in the commit) or a regression.
@Suite("planned SQL text of both dialects")
struct PlannedSQLTextTests {
    static let threadIDs: [Int64] = [101, 202, 303, 404]

    static var predicates: [String] {
        var cases = PredicateCases.plannerEquivalence + PredicateCases.storeEquivalence + [
            PredicateCases.WWDC.demo, PredicateCases.WWDC.cloudd, PredicateCases.WWDC.apsd, PredicateCases.WWDC.dasd,
            PredicateCases.WWDC.combined,
            #"process == "x'); DROP TABLE records; --""#, #"sender IN {"a'b", "\"c\"", "$1", "?"}"#,
            #"metadata.storeIdentifier != "ABC" OR metadata.storeIdentifier == nil"#,
            "processID == 1152921504606846976.0", #"process != "apsd" AND process != "dasd" AND sender == "a""#,
            #"NOT (metadata.storeIdentifier == nil)"#, #"signpostType != begin OR signpostScope == process"#,
            LargePredicates.disjunction(40, threadIDs: threadIDs), LargePredicates.conjunction(40, threadIDs: threadIDs),
            LargePredicates.aggregate(20, threadIDs: threadIDs), LargePredicates.negations(15),
            LargePredicates.nestedGroups(16, threadIDs: threadIDs),
        ]
        var picker = SeededPicker(state: 1414)
        for round in 0..<24 {
            cases.append(LargePredicates.random(&picker, depth: 2 + round % 14, threadIDs: threadIDs))
        }
        return cases
    }

    static func describe(_ value: SQLValue) -> String {
        switch value {
        case .null: "NULL"
        case .int(let number): "int \(number)"
        case .double(let number): "double \(number)"
        case .text(let text): "text \(text.debugDescription)"
        }
    }

    /// One block per predicate: its SQLite WHERE and bindings, the fleet's WHERE and parameters.
    static func transcript() -> String {
        var lines: [String] = []
        for text in predicates {
            lines.append("predicate: " + text.replacingOccurrences(of: "\n", with: "\\n"))
            guard let predicate = try? Predicate.parse(text) else {
                lines.append("  refused by the parser")
                continue
            }
            let plan = predicate.plan()
            lines.append("  sqlite: " + (plan.sqlWhere ?? "(none)"))
            lines.append("  bindings: " + plan.bindings.map(describe).joined(separator: ", "))
            lines.append("  residual: " + (plan.residual == nil ? "none" : "yes"))
            let fleet = FleetQuery(selection: RecordSelection(includeInfo: true, includeDebug: true), predicate: predicate).plan()
            lines.append("  postgres: " + fleet.whereSQL)
            lines.append("  parameters: " + fleet.parameters.values.map { $0?.debugDescription ?? "NULL" }.joined(separator: ", "))
            lines.append("  postgres decides: " + (fleet.predicateInSQL ? (fleet.isExact ? "exactly" : "a superset") : "nothing; Swift does"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func bothDialectsWriteTheExpectedText() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Expected/plannedSQL.txt")
        let actual = Self.transcript()
        let expected = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        if actual != expected {
            // Beside the temporary files, for a diff (or a copy, when the change is a fix).
            let written = FileManager.default.temporaryDirectory.appendingPathComponent("plannedSQL.actual.txt")
            try actual.write(to: written, atomically: true, encoding: .utf8)
            Issue.record("the planned SQL differs from Expected/plannedSQL.txt; this run's text is in \(written.path)")
        }
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        for (number, (got, want)) in zip(actualLines, expectedLines).enumerated() where got != want {
            Issue.record("line \(number + 1) differs:\n  expected: \(want.prefix(400))\n  actual:   \(got.prefix(400))")
            break
        }
        #expect(actualLines.count == expectedLines.count)
    }

    /// SQLShape keeps plans under SQLite's parser limits by counting on the tree: the counts must
    /// be those of the text SQLite parses.
    @Test func theTreeMeasuresWhatItsTextIs() throws {
        for text in Self.predicates {
            guard let plan = try? Predicate.parse(text).plan(), let expression = plan.sqlExpression, let sql = plan.sqlWhere else { continue }
            var depth = 0
            var deepest = 0
            for byte in sql.utf8 {
                if byte == UInt8(ascii: "(") { depth += 1; deepest = max(deepest, depth) }
                if byte == UInt8(ascii: ")") { depth -= 1 }
            }
            #expect(depth == 0 && expression.nesting == deepest, "\(text): \(expression.nesting) vs \(deepest)")
            #expect(expression.bindingCount == plan.bindings.count, "\(text)")
            #expect(sql.filter { $0 == "?" }.count == plan.bindings.count, "\(text)")
        }
    }

    /// A tree PostgreSQL cannot say exactly leaves no parameter behind for the rest of the query.
    @Test func aRefusedTreeBindsNothing() throws {
        let selection = RecordSelection(includeInfo: true, includeDebug: true)
        let numeric = FleetQuery(selection: selection, predicate: try Predicate.parse(#"process == "a" AND metadata.count > 2"#)).plan()
        #expect(!numeric.predicateInSQL)
        #expect(numeric.parameters.values.isEmpty, "\(numeric.whereSQL)")
        let windowed = FleetQuery(selection: RecordSelection(start: 5, includeInfo: true, includeDebug: true),
                                  predicate: try Predicate.parse(#"process == "a\000b""#)).plan()
        #expect(windowed.parameters.values == ["5"])
        #expect(windowed.whereSQL == #""timestamp" >= $1::bigint"#)
    }
}
