import DiagModel
import DiagStore
import Testing
import TestSupport

@testable import DiagPredicate

/// SQL + residual must select exactly what Swift alone selects, on a real SQLite table with the
/// chunk schema of docs/ARCHITECTURE.md, over records full of nils, Unicode and metadata.
@Suite("Planner: SQL + residual ≡ Swift evaluation")
struct PlannerEquivalenceTests {
    static let predicates: [String] = PredicateCases.plannerEquivalence

    static let records = PlannerTestRecords.make(count: 1_500)

    @Test(arguments: predicates) func sqlPlusResidualEqualsSwift(text: String) throws {
        let predicate = try Predicate.parse(text)
        let plan = predicate.plan()
        let records = Self.records
        // A connection is used by one thread: each test opens its own.
        let database = try PlannerTestRecords.database(with: records)
        let expected = Set(records.filter { predicate.evaluate($0.value) }.keys)
        var selected = Set<Int64>()
        let statement = try database.prepare("SELECT id FROM records" + (plan.sqlWhere.map { " WHERE " + $0 } ?? ""))
        for (index, value) in plan.bindings.enumerated() { try statement.bind(value, at: Int32(index + 1)) }
        while try statement.step() { selected.insert(statement.int64(at: 0)) }
        let sqlOnly = selected
        if let residual = plan.residual { selected = selected.filter { residual.evaluate(records[$0]!) } }
        #expect(selected == expected, "\(text)\n\(plan.explanation.joined(separator: "\n"))")
        #expect(expected.isSubset(of: sqlOnly), "SQL must never drop a match")
        for id in expected {
            let record = records[id]!
            if let start = plan.timeRange.start { #expect(record.timestamp >= start, "\(text)") }
            if let end = plan.timeRange.end { #expect(record.timestamp < end, "\(text)") }
            let folded = TextFolding.fold(record.eventMessage, caseInsensitive: true, diacriticInsensitive: true)
            for needle in plan.messageSearch { #expect(folded.contains(needle), "\(text): \(needle)") }
        }
        #expect(!plan.bindings.contains(.null))
    }

    @Test func theRecordsExerciseBothOutcomes() throws {
        // Guards the generated data: common predicates must select some records but not all.
        let records = Self.records
        for text in [#"process == "apsd""#, "messageType == error", #"message CONTAINS[cd] "icloud""#, "metadata.count > 2", "processID == nil"] {
            let predicate = try Predicate.parse(text)
            let count = records.values.filter(predicate.evaluate).count
            #expect(count > 0 && count < records.count, "\(text): \(count)")
        }
    }
}
