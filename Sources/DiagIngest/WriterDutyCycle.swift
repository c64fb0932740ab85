import Glibc

/// Whether diagd's store writer is the bottleneck of ingest: the share of wall time it spent
/// committing, over stretches of `window` seconds. Above `saturatedAbove`, the records come in
/// about as fast as one thread writes them, and the chunk finisher (seals and search indexes,
/// `ClosedChunkFinisher`) keeps to a smaller share of a core meanwhile (`ChunkedRecordStore`).
///
/// Why (issue 15, `Benchmarks/ingest.sh`, 2026-12-06): on 2 cores, a burst of 4 clients keeps the
/// writer busy 80–90 % of the time and the connection threads half a core; the finisher's half
/// core on top made the three contend (`docs/STORE.md`, "Chunks written in a burst", has the
/// figures). The chunks closed during the burst are sealed and indexed once it ends, at a whole
/// core (`ChunkedRecordStore.idleFinisherShare`).
///
/// Times are seconds on any monotonic clock (`now()`: CLOCK_MONOTONIC); only differences count.
struct WriterDutyCycle {
    /// The stretch of time each verdict covers.
    static let window = 0.5
    /// The share of a window spent committing above which the writer is saturated.
    static let saturatedAbove = 0.5

    private var windowStart: Double
    private var busy = 0.0
    /// The verdict of the last window that ended (false until one has).
    private(set) var saturated = false

    init(now: Double) {
        windowStart = now
    }

    /// A commit that ran from `start` to `end`; the verdict, renewed when a window ends with it.
    mutating func commit(from start: Double, to end: Double) -> Bool {
        // A commit that began before the window did counts only from the window's start.
        busy += max(0, end - max(start, windowStart))
        return look(now: end)
    }

    /// The verdict at `now` with no commit since the last one: a window that has ended is
    /// judged on the commits it held (none, if the writer waited for records all along).
    mutating func look(now: Double) -> Bool {
        let elapsed = now - windowStart
        guard elapsed >= Self.window else { return saturated }
        saturated = busy > Self.saturatedAbove * elapsed
        windowStart = now
        busy = 0
        return saturated
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
