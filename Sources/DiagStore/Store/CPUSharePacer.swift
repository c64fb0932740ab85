import Glibc

/// Holds the calling thread to a share of one core while it works through a long loop: `pace()`,
/// called every few hundred rows, sleeps whenever the thread's CPU time since the pacer was made
/// is above `share` of the time gone by. diagd's chunk finisher runs so (issue 15: "a bounded
/// share of one core"): at the scheduler's normal priority, it gets its share promptly however
/// busy the machine is (niced, it got almost nothing under load, and closed chunks stayed
/// unindexed), and never more than its share, so ingest keeps the rest.
public struct CPUSharePacer {
    /// The fraction of one core, above 0 and at most 1 (1: no pauses).
    public private(set) var share: Double
    /// Asked at each look at the clocks, when given, with whether `yieldsTo` still says someone is
    /// there: the share from then on (diagd: a whole core while no record comes in and nobody
    /// reads, half of one otherwise).
    private let shareNow: ((_ othersPresent: Bool) -> Double)?
    /// Asked at each look at the clocks: true while someone the work should give way to is
    /// there (diagd: a reader of the store, `StoreReaders.Presence`); the pacer then waits,
    /// looking again every `yieldPoll` seconds, for at most `maximumYield` seconds in a row, and
    /// after such a wait runs `minimumRun` seconds before it waits again (a `diag show` left open
    /// in a pager, or a `--follow`, slows the work down, never stops it).
    private let yieldsTo: (() -> Bool)?
    private let maximumYield: Double
    private let minimumRun: Double
    private let yieldPoll: Double
    private var wallStart: Double
    private var cpuStart: Double
    private var calls = 0
    /// When a wait as long as `maximumYield` ended: no waiting again until `minimumRun` later,
    /// unless a look finds nobody there meanwhile (the reader who stayed has left).
    private var lastLongYieldEnd = -Double.infinity

    /// Calls of `pace()` between two looks at the clocks.
    static let stride = 256

    public init(share: Double, shareNow: ((_ othersPresent: Bool) -> Double)? = nil, yieldsTo: (() -> Bool)? = nil, maximumYield: Double = 10,
                minimumRun: Double = 5, yieldPoll: Double = 0.02) {
        self.share = Self.bounded(share)
        self.shareNow = shareNow
        self.yieldsTo = yieldsTo
        self.maximumYield = maximumYield
        self.minimumRun = minimumRun
        self.yieldPoll = yieldPoll
        wallStart = Self.seconds(CLOCK_MONOTONIC)
        cpuStart = Self.seconds(CLOCK_THREAD_CPUTIME_ID)
    }

    /// Sleeps as long as it takes for the thread's CPU time to be back at `share` of the time
    /// since the pacer was made (time spent giving way not counted), and while `yieldsTo` says
    /// so, within its bounds; must be called on the thread that made it. `lookNow`: look at the
    /// clocks and at who is there on this call, not only every `stride` calls (before a piece of
    /// work too short to reach a stride of calls).
    public mutating func pace(lookNow: Bool = false) {
        calls += 1
        guard lookNow || calls % Self.stride == 0 else { return }
        // One look at who is there per stride, for the wait and for the share alike.
        let present = yieldsTo?() ?? false
        // Nobody there: `minimumRun` after a wait that reached its bound is for a reader who
        // stays (a pager, a `--follow`), so whoever comes next is waited for again. It held for
        // the next queries too: through diagd at 10M (`Benchmarks/userpath.sh`, some 20 chunks
        // still to seal), a `MATCHES` of 2.6 s outlasts the seals' 2 s wait, and the queries
        // after it ran beside 5 s of seals.
        if !present { lastLongYieldEnd = -Double.infinity }
        let stillPresent = present && giveWay()
        if let shareNow { setShare(shareNow(stillPresent)) }
        guard share < 1 else { return }
        let used = Self.seconds(CLOCK_THREAD_CPUTIME_ID) - cpuStart
        let elapsed = Self.seconds(CLOCK_MONOTONIC) - wallStart
        let ahead = used / share - elapsed
        guard ahead > 0.001 else { return }
        let pause = min(ahead, 1)
        usleep(useconds_t(pause * 1_000_000))
        slept += pause
    }

    /// The seconds this pacer has slept to keep to its share, in all.
    public private(set) var slept: Double = 0

    /// Holds the thread to `share` from now on: the time before counts for neither share, so a
    /// thread held back at half a core does not burst to catch up once it may have a whole one,
    /// nor owe the time it ran at a whole one once it is back to half.
    public mutating func setShare(_ share: Double) {
        let share = Self.bounded(share)
        guard share != self.share else { return }
        self.share = share
        wallStart = Self.seconds(CLOCK_MONOTONIC)
        cpuStart = Self.seconds(CLOCK_THREAD_CPUTIME_ID)
    }

    private static func bounded(_ share: Double) -> Double { min(1, max(0.01, share)) }

    /// The seconds this pacer has waited for `yieldsTo` in all.
    public private(set) var yielded: Double = 0

    /// Waits while `yieldsTo` says someone is there (it just did), within the bounds; returns
    /// whether someone still is (the wait reached its bound, or came within `minimumRun` of the
    /// last one that did).
    private mutating func giveWay() -> Bool {
        guard let yieldsTo else { return false }
        let start = Self.seconds(CLOCK_MONOTONIC)
        guard start - lastLongYieldEnd >= minimumRun else { return true }
        var now = start
        var present = true
        while now - start < maximumYield {
            usleep(useconds_t(max(0.001, min(yieldPoll, maximumYield - (now - start))) * 1_000_000))
            now = Self.seconds(CLOCK_MONOTONIC)
            present = yieldsTo()
            if !present { break }
        }
        if now - start >= maximumYield { lastLongYieldEnd = now }
        // The wait is not time the work could have used: the share is of the time left to it.
        wallStart += now - start
        yielded += now - start
        return present
    }

    /// `clock`'s time in seconds (CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID…); diagd's
    /// `WriterDutyCycle` reads its clocks with it too.
    public static func seconds(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
