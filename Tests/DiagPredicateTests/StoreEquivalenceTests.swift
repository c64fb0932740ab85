import DiagGenerator
import DiagModel
import DiagStore
import Foundation
import Testing
import TestSupport

@testable import DiagPredicate

/// The planner contract end to end: a plan run by a real `LogStore` (indexed, unindexed and open
/// chunks, the message search prefilter, the time window) then its residual, against Swift
/// evaluation of every record, over DiagGenerator's records.
@Suite("Planner through LogStore ≡ Swift evaluation")
struct StoreEquivalenceTests {
    static let predicates: [String] = PredicateCases.storeEquivalence

    /// One store for the suite: the first third indexed, the second sealed but not indexed, the rest open.
    static let fixture: (folder: TemporaryDirectory, all: [LogRecord]) = {
        let folder = try! TemporaryDirectory("predicate-store")
        let store = try! LogStore.open(at: folder.file("s.logarchive"), create: true)
        let records = Array(RecordGenerator(GeneratorOptions(count: 4_500, seed: 7)))
        for part in 0..<3 {
            try! store.append(records[(part * 1_500)..<((part + 1) * 1_500)])
            if part < 2 { try! store.rotate() }
            if part == 0 { _ = try! store.buildSearchIndexes() }
        }
        let all = try! store.records().all()
        try! store.close()
        return (folder, all)
    }()

    @Test(arguments: predicates) func planThroughTheStoreEqualsSwift(text: String) throws {
        let predicate = try Predicate.parse(text)
        let plan = predicate.plan()
        let store = try LogStore.open(at: Self.fixture.folder.file("s.logarchive"), options: .readOnly)
        defer { try? store.close() }
        let filter = StoreFilter(
            start: plan.timeRange.start, end: plan.timeRange.end, whereSQL: plan.sqlWhere, bindings: plan.bindings,
            messageSearch: plan.messageSearch)
        var found = try store.records(filter: filter).all()
        if let residual = plan.residual { found = found.filter(residual.evaluate) }
        let expected = Self.fixture.all.filter(predicate.evaluate)
        #expect(found == expected, "\(text): \(found.count) vs \(expected.count)\n\(plan.explanation.joined(separator: "\n"))")
    }

    @Test func thePredicatesSelectSomethingButNotEverything() throws {
        let all = Self.fixture.all
        #expect(all.count == 4_500)
        var selective = 0
        for text in Self.predicates {
            let count = all.filter(try Predicate.parse(text).evaluate).count
            if count > 0 && count < all.count { selective += 1 }
        }
        #expect(selective == Self.predicates.count - 1, "only date > 2030 selects nothing")
    }
}
