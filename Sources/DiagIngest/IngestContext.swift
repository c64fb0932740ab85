import DiagModel

/// What every connection thread shares: the queue to the writer, the ring, the live streams,
/// the level settings and the counters.
final class IngestContext: Sendable {
    let queue: RecordQueue
    let ring: RecordRing
    let hub = StreamHub()
    let levels: LevelConfiguration
    let counters: IngestCounters
    let writer: StoreWriterThread
    let log: DaemonLog
    /// Compiles a stream's predicate into a filter; nil when the stream has no predicate.
    let makeStreamFilter: @Sendable (String?) throws -> (@Sendable (LogRecord) -> Bool)?

    init(
        queue: RecordQueue, ring: RecordRing, levels: LevelConfiguration, counters: IngestCounters, writer: StoreWriterThread, log: DaemonLog,
        makeStreamFilter: @escaping @Sendable (String?) throws -> (@Sendable (LogRecord) -> Bool)?
    ) {
        self.queue = queue
        self.ring = ring
        self.levels = levels
        self.counters = counters
        self.writer = writer
        self.log = log
        self.makeStreamFilter = makeStreamFilter
    }
}
