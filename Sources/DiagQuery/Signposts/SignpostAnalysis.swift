import DiagModel

/// `diag signposts`' whole computation over records in time order: intervals paired, their
/// statistics per name, events counted per name, unmatched begins and ends, and optionally
/// activities as intervals. Every count is exact; the lists of unmatched marks keep the first
/// `listLimit` of each kind (the counts say how many there were).
public struct SignpostAnalysis {
    public struct NameSummary: Sendable {
        public var name: IntervalName
        public var kind: Interval.Kind
        public var statistics = DurationStatistics()
        /// The slowest intervals of the name, slowest first (at most `slowestLimit`).
        public var slowest: [Interval] = []
    }

    public static let slowestLimit = 5
    public let listLimit: Int
    /// Names followed at most; intervals of further names are counted in `namesOverflowed`.
    public let nameLimit: Int
    private var pairer: IntervalPairer
    private var activities: ActivitySpans?
    public private(set) var names: [IntervalName: NameSummary] = [:]
    public private(set) var activityNames: [IntervalName: NameSummary] = [:]
    public private(set) var events: [IntervalName: Int] = [:]
    public private(set) var unmatchedEnds: [SignpostMark] = []
    public private(set) var unmatchedEndCount = 0
    public private(set) var unmatchedBegins: [SignpostMark] = []
    public private(set) var unmatchedBeginCount = 0
    public private(set) var intervalCount = 0
    public private(set) var eventCount = 0
    public private(set) var namesOverflowed = 0
    public private(set) var recordsRead = 0

    public init(openLimit: Int = 100_000, listLimit: Int = 1_000, nameLimit: Int = 1_000, activities: Bool = false) {
        pairer = IntervalPairer(openLimit: openLimit)
        self.listLimit = listLimit
        self.nameLimit = nameLimit
        self.activities = activities ? ActivitySpans(limit: openLimit) : nil
    }

    public var openOverflowed: Int { pairer.overflowed }
    public var activityOverflowed: Int { activities?.overflowed ?? 0 }

    /// Takes one record; returns the interval it ends, if any (for `--intervals`).
    public mutating func take(_ record: LogRecord) -> Interval? {
        recordsRead += 1
        activities?.take(record)
        switch pairer.take(record) {
        case .interval(let interval):
            intervalCount += 1
            Self.add(interval, to: &names, limit: nameLimit, overflowed: &namesOverflowed)
            return interval
        case .unmatchedEnd(let mark):
            unmatchedEndCount += 1
            if unmatchedEnds.count < listLimit { unmatchedEnds.append(mark) }
        case .event(let mark):
            eventCount += 1
            let name = IntervalName(subsystem: mark.subsystem ?? "", category: mark.category ?? "", name: mark.name)
            if events[name] != nil || events.count < nameLimit { events[name, default: 0] += 1 } else { namesOverflowed += 1 }
        case .none:
            break
        }
        return nil
    }

    /// Ends the input: the begins left open become unmatched, activities become intervals
    /// (returned, by start, for `--intervals`).
    public mutating func finish() -> [Interval] {
        let left = pairer.finish()
        unmatchedBeginCount = left.count
        unmatchedBegins = Array(left.prefix(listLimit))
        guard var spans = activities else { return [] }
        let finished = spans.finish()
        activities = spans
        for interval in finished { Self.add(interval, to: &activityNames, limit: nameLimit, overflowed: &namesOverflowed) }
        return finished
    }

    private static func add(_ interval: Interval, to table: inout [IntervalName: NameSummary], limit: Int, overflowed: inout Int) {
        let name = interval.name
        if table[name] == nil {
            guard table.count < limit else { overflowed += 1; return }
            table[name] = NameSummary(name: name, kind: interval.kind)
        }
        table[name]!.statistics.add(interval.duration)
        var slowest = table[name]!.slowest
        if slowest.count < Self.slowestLimit || interval.duration > slowest[slowest.count - 1].duration {
            let index = slowest.firstIndex { $0.duration < interval.duration } ?? slowest.count
            slowest.insert(interval, at: index)
            if slowest.count > Self.slowestLimit { slowest.removeLast() }
            table[name]!.slowest = slowest
        }
    }

    /// Names by total time, largest first: where the time went.
    public var namesByTotal: [NameSummary] {
        names.values.sorted { ($0.statistics.total, $1.name) > ($1.statistics.total, $0.name) }
    }

    public var activityNamesByTotal: [NameSummary] {
        activityNames.values.sorted { ($0.statistics.total, $1.name) > ($1.statistics.total, $0.name) }
    }
}
