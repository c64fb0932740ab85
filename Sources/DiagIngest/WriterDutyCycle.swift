import DiagStore
import Glibc

/// Whether diagd's store writer is the bottleneck of ingest: the CPU time its commits took, as a
/// share of stretches of `window` seconds of wall time. Above `saturatedAbove` the records come in
/// about as fast as one thread writes them, and the chunk finisher (seals and search indexes,
/// `ClosedChunkFinisher`) keeps to a smaller share of a core meanwhile (`ChunkedRecordStore`).
///
/// CPU time, not the wall time of the commits: on a machine busy with other work (the senders
/// themselves, `Benchmarks/userpath.sh`'s four Python processes on two cores), a commit waits for
/// a core and lasts longer without the writer being what holds ingest back; counted so, 4 of 5
/// chunks were sealed 5 s after the last of 1M records there, against 5 of 5 counted in CPU time
/// and without the rule (two runs each).
///
/// Why (issue 15, `Benchmarks/ingest.sh`, 2026-12-06): on 2 cores, a burst of 4 clients keeps the
/// writer's thread on a core 80–87 % of the time and the connection threads half a core more; the
/// finisher's half core on top made the three contend (`docs/STORE.md`, "Chunks written in a
/// burst", has the figures). The chunks closed during the burst are sealed and indexed once it
/// ends, at a whole core (`ChunkedRecordStore.idleFinisherShare`).
///
/// Times are seconds; `now()` and `threadCPU()` read the clocks (`CPUSharePacer.seconds`), only
/// differences count.
struct WriterDutyCycle {
    /// The stretch of wall time each verdict covers.
    static let window = 0.5
    /// The share of a window's wall time the writer spent on a core committing, above which it
    /// is saturated.
    static let saturatedAbove = 0.5

    private var windowStart: Double
    private var busy = 0.0
    /// The verdict of the last window that ended (false until one has).
    private(set) var saturated = false

    init(now: Double) {
        windowStart = now
    }

    /// A commit that took `busy` seconds of the writer's CPU time and ended at `end`; the verdict,
    /// renewed when a window ends with it (the window the commit ends in counts all of it).
    mutating func commit(busy: Double, endingAt end: Double) -> Bool {
        self.busy += max(0, busy)
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

    /// CLOCK_MONOTONIC, in seconds.
    static func now() -> Double { CPUSharePacer.seconds(CLOCK_MONOTONIC) }

    /// The calling thread's CPU time (user and system), in seconds.
    static func threadCPU() -> Double { CPUSharePacer.seconds(CLOCK_THREAD_CPUTIME_ID) }
}
