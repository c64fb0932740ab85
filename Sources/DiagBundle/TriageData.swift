import DiagModel
import DiagQuery
import DiagStore

/// What report.html's triage view draws, gathered from a snapshot's chunks with bounds on
/// everything, so that the page of a bundle of a million records stays small: the longest
/// `intervalLimit` signpost intervals and `activityLimit` activities, the first `markLimit`
/// errors and faults, the first `recordLimit` records (and the errors after them) for the
/// table; every count is exact and the page says how many are not drawn.
struct TriageData: Sendable {
    static let intervalLimit = 3_000
    static let activityLimit = 600
    static let markLimit = 2_000
    static let recordLimit = 1_000

    var start: Int64 = 0
    var end: Int64 = 0
    var intervals: [Interval] = []
    var intervalCount = 0
    var activities: [ActivityBar] = []
    var activityCount = 0
    var marks: [LogRecord] = []
    var markCount = 0
    var records: [LogRecord] = []
    var recordCount: Int64 = 0
    /// Interval statistics per name, the slowest total first, with each name's slowest intervals.
    var names: [SignpostAnalysis.NameSummary] = []
    var unmatchedBegins = 0
    var unmatchedEnds = 0
    var openOverflowed = 0

    var isEmpty: Bool { recordCount == 0 }

    static func collect(_ sources: [SummarySource]) throws -> TriageData {
        var data = TriageData()
        var first = Int64.max, last = Int64.min
        for source in sources {
            let database = try source.open()
            let bounds = try database.prepare("SELECT min(timestamp), max(timestamp), count(*) FROM records")
            if try bounds.step(), !bounds.isNull(at: 0) {
                first = min(first, bounds.int64(at: 0))
                last = max(last, bounds.int64(at: 1))
                data.recordCount += bounds.int64(at: 2)
            }
        }
        guard data.recordCount > 0 else { return data }
        data.start = first
        data.end = max(last, first + 1_000_000)

        var analysis = SignpostAnalysis()
        var kept = LongestIntervals(limit: intervalLimit)
        var signposts = try SnapshotChunkStream.merged(sources, where: "eventType = \(EventType.signpostEvent.rawValue)")
        while let record = try signposts.next() {
            if let interval = analysis.take(record) { kept.add(interval) }
        }
        _ = analysis.finish()
        data.intervals = kept.sorted
        data.intervalCount = analysis.intervalCount
        data.names = analysis.namesByTotal
        data.unmatchedBegins = analysis.unmatchedBeginCount
        data.unmatchedEnds = analysis.unmatchedEndCount
        data.openOverflowed = analysis.openOverflowed

        let (bars, overflowed) = try ActivityBar.collect(sources, limit: 100_000)
        data.activityCount = bars.count + overflowed
        data.activities = Array(bars.values.sorted { ($0.duration, $1.identifier) > ($1.duration, $0.identifier) }.prefix(activityLimit))

        var errors = try SnapshotChunkStream.merged(sources, where: SnapshotChunkStream.errors)
        while let record = try errors.next() {
            data.markCount += 1
            if data.marks.count < markLimit { data.marks.append(record) }
        }
        var all = try SnapshotChunkStream.merged(sources, where: SnapshotChunkStream.everything)
        while data.records.count < recordLimit, let record = try all.next() { data.records.append(record) }
        // The errors past the first records join the table, so that every mark drawn has its row.
        let lastShown = data.records.last?.timestamp ?? Int64.min
        data.records += data.marks.filter { $0.timestamp > lastShown }
        return data
    }
}

/// The `limit` longest intervals of a stream, kept in bounded memory: the list is cut back to
/// the longest `limit` whenever it reaches twice that.
struct LongestIntervals {
    let limit: Int
    private var items: [Interval] = []

    init(limit: Int) { self.limit = limit }

    mutating func add(_ interval: Interval) {
        items.append(interval)
        if items.count >= 2 * limit { cut() }
    }

    private mutating func cut() {
        items.sort { $0.duration > $1.duration }
        items.removeLast(max(0, items.count - limit))
    }

    /// The kept intervals, by start.
    var sorted: [Interval] {
        var copy = self
        copy.cut()
        return copy.items.sorted { $0.begin.timestamp < $1.begin.timestamp }
    }
}
