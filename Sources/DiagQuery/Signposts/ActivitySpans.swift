import DiagModel

/// Activities as intervals: from an activity's creation (its `activityCreateEvent`, or its first
/// record when the creation is outside the window) to its last record, in whatever process.
/// At most `limit` activities are followed at once; a record of a new activity past it is
/// counted in `overflowed`, and the activity is not followed.
public struct ActivitySpans {
    public static let processLimit = 16
    public let limit: Int
    private var spans: [Int64: Interval] = [:]
    public private(set) var overflowed = 0
    private var refused: Set<Int64> = []

    public init(limit: Int = 100_000) {
        self.limit = max(1, limit)
    }

    public mutating func take(_ record: LogRecord) {
        guard let identifier = record.activityIdentifier, identifier != 0 else { return }
        if var span = spans[identifier] {
            spans[identifier] = nil
            if record.timestamp >= span.endTimestamp {
                span.endTimestamp = record.timestamp
                span.endMessage = record.eventMessage
            }
            span.recordCount += 1
            if record.eventType == .activityCreateEvent {
                // The creation came after records of the activity (clocks of two processes):
                // it names the activity, and the span still starts at its first record.
                span.begin.name = record.eventMessage
            }
            if let process = record.process, !span.processes.contains(process), span.processes.count < Self.processLimit {
                span.processes.append(process)
            }
            spans[identifier] = span
            return
        }
        guard spans.count < limit else {
            if refused.count < limit, refused.insert(identifier).inserted { overflowed += 1 }
            return
        }
        var mark = SignpostMark(record, name: record.eventType == .activityCreateEvent ? record.eventMessage : "")
        mark.signpostID = identifier
        mark.scope = "activity"
        spans[identifier] = Interval(
            kind: .activity, begin: mark, endTimestamp: record.timestamp, endMessage: record.eventMessage,
            processes: record.process.map { [$0] } ?? [], recordCount: 1)
    }

    /// Every followed activity, by start; one seen without its creation is named "(activity)".
    public mutating func finish() -> [Interval] {
        let all = spans.values.map { span -> Interval in
            var span = span
            if span.begin.name.isEmpty { span.begin.name = "(activity)" }
            return span
        }
        spans = [:]
        return all.sorted { ($0.begin.timestamp, $0.begin.signpostID ?? 0) < ($1.begin.timestamp, $1.begin.signpostID ?? 0) }
    }
}
