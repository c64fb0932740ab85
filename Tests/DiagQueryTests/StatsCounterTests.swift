import DiagGenerator
import DiagImport
import DiagModel
import DiagOutput
import DiagStore
import Foundation
import Testing
import TestSupport
@testable import DiagQuery

/// `diag stats`' counting in the query layer: aggregate SQL in the store and the tally of
/// streamed records key their groups the same way (`RecordGrouping`), so the two reports agree
/// to the byte, over the same store, window and predicate.
@Suite struct StatsCounterTests {
    static let records = Array(RecordGenerator(GeneratorOptions(count: 3000, seed: 11)))

    private func store(_ folder: TemporaryDirectory) throws -> URL {
        let url = folder.file("store")
        let store = try LogStore.open(at: url, create: true)
        for start in stride(from: 0, to: Self.records.count, by: 1000) {
            try store.append(Array(Self.records[start..<min(start + 1000, Self.records.count)]))
            try store.rotate()
        }
        try store.close()
        return url
    }

    private func count(_ url: URL, _ condition: QueryCondition?, start: Int64? = nil, end: Int64? = nil) throws -> StatsCount {
        try StatsCounter.count([.store(url)], condition: condition, start: start, end: end,
                               bundleOpener: nil, options: ImportOptions(), onIssue: { _ in })
    }

    /// The same selection twice: once as SQL, once as a residual only Swift decides.
    private func conditions(_ keep: @escaping @Sendable (LogRecord) -> Bool, sql: String, bindings: [SQLValue])
        -> (sql: QueryCondition, streamed: QueryCondition)
    {
        (QueryCondition(sqlWhere: sql, bindings: bindings, matches: keep),
         QueryCondition(residual: keep, matches: keep))
    }

    @Test func aggregateSQLAndStreamingGiveTheSameReport() throws {
        let folder = try TemporaryDirectory()
        let url = try store(folder)
        let (sql, streamed) = conditions({ $0.messageType != .debug }, sql: "messageType != ?", bindings: [.int(2)])
        let start = Self.records[200].timestamp, end = Self.records[2500].timestamp
        let bySQL = try count(url, sql, start: start, end: end)
        let byStreaming = try count(url, streamed, start: start, end: end)
        #expect(bySQL.method == "sql-aggregate" && bySQL.reason == nil)
        #expect(byStreaming.method == "streamed" && byStreaming.reason?.contains("residual") == true)
        let expected = Self.records.filter { $0.timestamp >= start && $0.timestamp < end && $0.messageType != .debug }
        var tally = StatsTally()
        for record in expected { tally.add(record) }
        for counted in [bySQL, byStreaming] {
            let report = StatsReport(tally: counted.tally, sort: .bytes, limit: 5, zone: .utc)
            #expect(report.totals.events == Int64(expected.count))
            #expect(report.totals.bytes == expected.reduce(0) { $0 + Int64($1.eventMessage.utf8.count) })
            for grouping in RecordGrouping.allCases {
                #expect(counted.tally.groups[grouping] == tally.groups[grouping], "\(grouping)")
            }
        }
        let reports = [bySQL, byStreaming].map { StatsReport(tally: $0.tally, sort: .events, limit: nil, zone: .utc) }
        #expect(reports[0].json(method: "m", residual: false, reason: nil, predicate: nil)
            == reports[1].json(method: "m", residual: false, reason: nil, predicate: nil))
        #expect(reports[0].human(method: "m", reason: nil, predicate: nil) == reports[1].human(method: "m", reason: nil, predicate: nil))
    }

    @Test func minutesAreFlooredBeforeTheEpochToo() {
        #expect(RecordGrouping.minuteStart(of: 0) == 0)
        #expect(RecordGrouping.minuteStart(of: 59_999_999_999) == 0)
        #expect(RecordGrouping.minuteStart(of: 60_000_000_000) == 60_000_000_000)
        #expect(RecordGrouping.minuteStart(of: -1) == -60_000_000_000)
        var tally = StatsTally()
        tally.add(LogRecord(timestamp: -1, eventMessage: "before"))
        #expect(tally.figures(.minute, .int(-60_000_000_000)) == StatsTally.Figures(events: 1, bytes: 6))
        #expect(tally.figures(.sender, .null) == StatsTally.Figures(events: 1, bytes: 6))
    }
}
