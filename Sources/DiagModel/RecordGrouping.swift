/// What `diag stats` and `diag fleet stats` count records by, one table each. The store's
/// aggregate SQL (`LogStore.groupedCounts`), PostgreSQL's (`FleetStatistics`) and the tally of
/// streamed records (`StatsTally`) all key their counts by these, so that the three agree.
public enum RecordGrouping: String, Sendable, CaseIterable {
    case process, sender, subsystem, category
    /// The level: keys are `messageType` codes (0, 1, 2, 16, 17).
    case messageType
    /// The minute: keys are the minute's first nanosecond since the epoch (`minuteStart`).
    case minute

    /// The nanoseconds per minute: the `minute` groups' width.
    public static let nanosecondsPerMinute: Int64 = 60 * Timestamp.nanosecondsPerSecond

    /// The first nanosecond of the minute holding `timestamp` (floored, before 1970 too): the
    /// key of the `minute` grouping; the SQL of each dialect computes the same.
    public static func minuteStart(of timestamp: Int64) -> Int64 {
        let minute = nanosecondsPerMinute
        return timestamp - ((timestamp % minute) + minute) % minute
    }
}
