import DiagGenerator
import DiagModel
import DiagStore
import Foundation
import Testing
import TestSupport

@testable import DiagPredicate

/// Issue 13, item 8: any predicate the parser accepts runs on a store, however many terms it has
/// and however deeply it nests, with the answer Swift alone gives. SQLite refuses expression
/// trees deeper than 1000 and overflows its parser's stack after ~28 open parentheses; the plan
/// must stay within both, and keep equality lists in SQL (`IN`, served by the index).
@Suite("Large and deep predicates through LogStore ≡ Swift evaluation")
struct LargePredicateStoreTests {
    /// 600 records: the first half in a sealed, indexed chunk, the rest in the open one.
    static let fixture: (folder: TemporaryDirectory, all: [LogRecord], threadIDs: [Int64]) = {
        let folder = try! TemporaryDirectory("large-predicate-store")
        let store = try! LogStore.open(at: folder.file("s.logarchive"), create: true)
        let records = Array(RecordGenerator(GeneratorOptions(count: 600, seed: 13)))
        try! store.append(records[0..<300])
        try! store.rotate()
        _ = try! store.buildSearchIndexes()
        try! store.append(records[300...])
        let all = try! store.records().all()
        try! store.close()
        // Every 20th record's thread: each predicate selects some records, never all.
        let threads = stride(from: 0, to: all.count, by: 20).compactMap { all[$0].threadID }
        return (folder, all, threads)
    }()

    /// Runs the plan through the store and its residual in Swift; the records, or the store's error.
    func throughTheStore(_ text: String) throws -> (found: [LogRecord], expected: [LogRecord], plan: QueryPlan) {
        let predicate = try Predicate.parse(text)
        let plan = predicate.plan()
        let store = try LogStore.open(at: Self.fixture.folder.file("s.logarchive"), options: .readOnly)
        defer { try? store.close() }
        let filter = StoreFilter(
            start: plan.timeRange.start, end: plan.timeRange.end, whereSQL: plan.sqlWhere, bindings: plan.bindings,
            messageSearch: plan.messageSearch)
        var found = try store.records(filter: filter).all()
        if let residual = plan.residual { found = found.filter(residual.evaluate) }
        return (found, Self.fixture.all.filter(predicate.evaluate), plan)
    }

    @Test(arguments: LargePredicates.termCounts) func manyTerms(count: Int) throws {
        let threads = Self.fixture.threadIDs
        for (name, text, list) in [
            ("OR", LargePredicates.disjunction(count, threadIDs: threads), "threadID IN ("),
            ("AND", LargePredicates.conjunction(count, threadIDs: threads), "threadID NOT IN ("),
            ("IN", LargePredicates.aggregate(count, threadIDs: threads), "threadID IN ("),
        ] {
            let run = try throughTheStore(text)
            #expect(run.found == run.expected, "\(name) of \(count): \(run.found.count) vs \(run.expected.count)")
            #expect(run.expected.count > 0 && run.expected.count < Self.fixture.all.count, "\(name) of \(count) selects \(run.expected.count)")
            #expect(run.plan.bindings.count <= SQLShape.maximumBindings)
            // The equality lists stay in SQL, where the index serves them.
            #expect(run.plan.sqlWhere?.contains(list) == true, "\(name) of \(count)")
            if name != "AND" { #expect(run.plan.residual == nil, "\(name) of \(count)") }
        }
    }

    /// Past SQLite's 32,766 bound values the OR goes to Swift whole: the same answer, no error.
    @Test func moreValuesThanSQLiteBinds() throws {
        let text = (0..<40_000).map { "processID == \($0 % 2 == 0 ? Int64($0) : Self.fixture.all[$0 % 600].processID ?? 0)" }.joined(separator: " OR ")
        let run = try throughTheStore(text)
        #expect(run.plan.sqlWhere == nil && run.plan.residual != nil)
        #expect(run.found == run.expected && !run.found.isEmpty)
    }

    @Test func equalityListsOnOneColumnAreOneInList() throws {
        let text = (0..<5_000).map { "process == \"p\($0)\"" }.joined(separator: " OR ")
        let plan = try Predicate.parse(text).plan()
        #expect(plan.sqlWhere == "process IN (" + Array(repeating: "?", count: 5_000).joined(separator: ", ") + ")")
        #expect(plan.bindings.count == 5_000)
        #expect(plan.residual == nil)
    }

    @Test func theDeepestNestingTheParserAccepts() throws {
        let deepest = PredicateParser.maximumDepth
        for text in [
            LargePredicates.negations(deepest), LargePredicates.negations(deepest - 1),
            LargePredicates.nestedGroups(deepest, threadIDs: Self.fixture.threadIDs),
            LargePredicates.nestedGroups(deepest / 2, threadIDs: Self.fixture.threadIDs),
            LargePredicates.nestedGroups(20, threadIDs: Self.fixture.threadIDs),
        ] {
            let run = try throughTheStore(text)
            #expect(run.found == run.expected, "\(text.prefix(80))…: \(run.found.count) vs \(run.expected.count)")
            #expect(run.expected.count > 0 && run.expected.count < Self.fixture.all.count, "\(text.prefix(80))")
        }
    }

    /// Random shapes up to the parser's depth: whatever the shape, SQLite takes the plan.
    @Test func randomDeepShapes() throws {
        var picker = SeededPicker(state: 1313)
        var depths: [Int] = []
        for round in 0..<150 {
            let text = LargePredicates.random(&picker, depth: 10 + round % 110, threadIDs: Self.fixture.threadIDs)
            guard (try? Predicate.parse(text)) != nil else { continue }
            depths.append(text.filter { $0 == "(" }.count)
            let run = try throughTheStore(text)
            #expect(run.found == run.expected, "\(text): \(run.found.count) vs \(run.expected.count)")
        }
        #expect(depths.count > 100, "most random shapes parse")
        #expect((depths.max() ?? 0) > 60, "some nest deeper than SQLite's parser could take as written")
    }
}
