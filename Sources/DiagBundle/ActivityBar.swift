import DiagModel
import DiagQuery
import DiagStore
import Foundation

/// One activity as the report draws it: from its creation (or first record) to its last record.
struct ActivityBar: Sendable {
    var identifier: Int64
    var name: String
    var creator: String
    var start: Int64
    var end: Int64
    var records: Int64
    var duration: Int64 { end - start }
}

extension ActivityBar {
    /// Every activity's span, from one aggregate query per chunk (no record is decoded), named by
    /// its creation record. At most `limit` activities are followed; the count says how many more.
    static func collect(_ sources: [SummarySource], limit: Int) throws -> (bars: [Int64: ActivityBar], overflowed: Int) {
        var bars: [Int64: ActivityBar] = [:]
        var overflowed: Set<Int64> = []
        for source in sources {
            let database = try source.open()
            let spans = try database.prepare("""
                SELECT activityIdentifier, min(timestamp), max(timestamp), count(*) FROM records
                WHERE activityIdentifier IS NOT NULL AND activityIdentifier != 0 GROUP BY activityIdentifier
                """)
            while try spans.step() {
                let identifier = spans.int64(at: 0)
                if var bar = bars[identifier] {
                    bar.start = min(bar.start, spans.int64(at: 1))
                    bar.end = max(bar.end, spans.int64(at: 2))
                    bar.records += spans.int64(at: 3)
                    bars[identifier] = bar
                } else if bars.count < limit {
                    bars[identifier] = ActivityBar(identifier: identifier, name: "", creator: "", start: spans.int64(at: 1),
                                                   end: spans.int64(at: 2), records: spans.int64(at: 3))
                } else if overflowed.count < limit {
                    overflowed.insert(identifier)
                }
            }
            let names = try database.prepare("SELECT activityIdentifier, eventMessage, process FROM records WHERE eventType = 513")
            while try names.step() {
                let identifier = names.int64(at: 0)
                guard bars[identifier] != nil else { continue }
                bars[identifier]!.name = names.string(at: 1)
                bars[identifier]!.creator = names.optionalString(at: 2) ?? BundleStatistics.unknown
            }
        }
        return (bars, overflowed.count)
    }
}
