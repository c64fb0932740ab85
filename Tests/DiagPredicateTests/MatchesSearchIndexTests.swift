import DiagGenerator
import DiagModel
import Foundation
import Testing
import TestSupport

@testable import DiagPredicate
@testable import DiagStore

/// Issue 15: a `MATCHES` whose pattern has a required literal run of 3 characters or more is
/// prefiltered by a chunk's trigram message index, beside the regex, whatever its options: the
/// index folds case and diacritics, so a literal of a case-sensitive pattern is still a necessary
/// condition there. The same records come back with and without the index.
@Suite("MATCHES through the message search index")
struct MatchesSearchIndexTests {
    /// The same 900 generated records in two stores: two sealed chunks and the open one each;
    /// the sealed chunks of `indexed` have their search index, those of `plain` do not.
    static let stores: (folder: TemporaryDirectory, indexed: URL, plain: URL, all: [LogRecord]) = {
        let folder = try! TemporaryDirectory("matches-search-index")
        let records = Array(RecordGenerator(GeneratorOptions(count: 900, seed: 15)))
        var urls: [URL] = []
        for (name, index) in [("indexed", true), ("plain", false)] {
            let url = folder.file("\(name).logarchive")
            let store = try! LogStore.open(at: url, create: true)
            try! store.append(records[0..<300])
            try! store.rotate()
            try! store.append(records[300..<600])
            try! store.rotate()
            if index { #expect(try! store.buildSearchIndexes() == 2) }
            try! store.append(records[600...])
            try! store.close()
            urls.append(url)
        }
        let all = try! LogStore.open(at: urls[0], options: .readOnly).records().all()
        return (folder, urls[0], urls[1], all)
    }()

    static let predicates = [
        #"message MATCHES ".*CKError [0-9]+ \\((ZoneBusy|QuotaExceeded)\\).*""#,
        // "batch " is required as written: "Batch 2/3 failed" passes the index (it folds case) and not the regex.
        #"message MATCHES "Sending batch [0-9]+/[0-9]+ .*""#,
        #"message MATCHES[c] ".*http 2[0-9][0-9].*""#,
        #"message MATCHES[cd] "EVALUATING COM\\.EXAMPLE\\..*→ defer""#,
        #"message MATCHES "HTTP/[0-9] stream [0-9]+ closed: [0-9]+ bytes.*""#,
        #"message MATCHES ".*CKError [0-9]+.*" AND process == "transport""#,
    ]

    /// The SQL rows of `store` before the residual, and the records after it.
    func query(_ store: URL, _ plan: QueryPlan) throws -> (rows: [LogRecord], records: [LogRecord]) {
        let opened = try LogStore.open(at: store, options: .readOnly)
        defer { try? opened.close() }
        let filter = StoreFilter(start: plan.timeRange.start, end: plan.timeRange.end, whereSQL: plan.sqlWhere,
                                 bindings: plan.bindings, messageSearch: plan.messageSearch)
        let rows = try opened.records(filter: filter).all()
        return (rows, plan.residual.map { residual in rows.filter(residual.evaluate) } ?? rows)
    }

    @Test(arguments: predicates) func sameRecordsWithAndWithoutTheIndex(text: String) throws {
        let predicate = try Predicate.parse(text)
        let plan = predicate.plan()
        #expect(!plan.messageSearch.isEmpty, "a required literal of 3 characters or more")
        let expected = Self.stores.all.filter(predicate.evaluate)
        #expect(!expected.isEmpty && expected.count < Self.stores.all.count, "\(text) selects \(expected.count)")
        let indexed = try query(Self.stores.indexed, plan)
        let plain = try query(Self.stores.plain, plan)
        #expect(indexed.records == expected)
        #expect(plain.records == expected)
        // SQL handed over fewer rows than the records (the plain store's scan is narrowed too,
        // by the folded-contains function, more exactly than the trigrams).
        #expect(indexed.rows.count < Self.stores.all.count)
        #expect(plain.rows.count < Self.stores.all.count)
    }

    @Test func theIndexSkipsRowsWithoutTheLiteral() throws {
        // Under a case-sensitive pattern the literal is still a (case-folded) necessary condition.
        let plan = try Predicate.parse(#"message MATCHES ".*CKError [0-9]+ \\((ZoneBusy|QuotaExceeded)\\).*""#).plan()
        #expect(plan.messageSearch == ["ckerror "])
        let sealed = Self.stores.all.prefix(600)
        let indexedRows = try query(Self.stores.indexed, plan).rows.filter { $0.timestamp <= sealed.last!.timestamp }
        // Only messages with every trigram of "ckerror " come back from the indexed chunks.
        #expect(indexedRows.allSatisfy { TextFolding.fold($0.eventMessage, caseInsensitive: true, diacriticInsensitive: true).contains("ckerror ") })
        #expect(indexedRows.count < sealed.count / 4, "\(indexedRows.count) of \(sealed.count) rows read")
    }

    /// SQLite's own plan for a sealed chunk's query: the search table is looked up, beside the regex
    /// left to Swift; without the index the chunk is scanned.
    @Test func explainQueryPlanShowsTheSearchTable() throws {
        let plan = try Predicate.parse(#"message MATCHES[c] ".*http 2[0-9][0-9].*""#).plan()
        let filter = StoreFilter(whereSQL: plan.sqlWhere, bindings: plan.bindings, messageSearch: plan.messageSearch)
        let store = try LogStore.open(at: Self.stores.indexed, options: .readOnly)
        let chunk = try #require(store.info.chunks.first)
        let path = store.chunkPath(chunk.file)
        try store.close()
        #expect(chunk.searchIndex)
        let database = try Database(path: path)
        for searchIndex in [true, false] {
            let condition = ChunkCondition(filter: filter, searchIndex: searchIndex)
            let statement = try database.prepare("EXPLAIN QUERY PLAN SELECT id FROM records\(condition.sql)")
            try statement.bind(condition.bindings)
            var details: [String] = []
            while try statement.step() { details.append(statement.string(at: 3)) }
            let usesIndex = details.contains { $0.contains(ChunkSchema.searchTable) }
            #expect(usesIndex == searchIndex, "\(details)")
        }
    }
}
