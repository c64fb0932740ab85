import Glibc

/// Holds the calling thread to a share of one core while it works through a long loop: `pace()`,
/// called every few hundred rows, sleeps whenever the thread's CPU time since the pacer was made
/// is above `share` of the time gone by. diagd's chunk finisher runs so (issue 15: "a bounded
/// share of one core"): at the scheduler's normal priority, it gets its share promptly however
/// busy the machine is (niced, it got almost nothing under load, and closed chunks stayed
/// unindexed), and never more than its share, so ingest keeps the rest.
public struct CPUSharePacer {
    /// The fraction of one core, above 0 and at most 1 (1: no pauses).
    public let share: Double
    private let wallStart: Double
    private let cpuStart: Double
    private var calls = 0

    /// Calls of `pace()` between two looks at the clocks.
    static let stride = 256

    public init(share: Double) {
        self.share = min(1, max(0.01, share))
        wallStart = Self.seconds(CLOCK_MONOTONIC)
        cpuStart = Self.seconds(CLOCK_THREAD_CPUTIME_ID)
    }

    /// Sleeps as long as it takes for the thread's CPU time to be back at `share` of the time
    /// since the pacer was made; must be called on the thread that made it.
    public mutating func pace() {
        calls += 1
        guard share < 1, calls % Self.stride == 0 else { return }
        let used = Self.seconds(CLOCK_THREAD_CPUTIME_ID) - cpuStart
        let elapsed = Self.seconds(CLOCK_MONOTONIC) - wallStart
        let ahead = used / share - elapsed
        guard ahead > 0.001 else { return }
        usleep(useconds_t(min(ahead, 1) * 1_000_000))
    }

    private static func seconds(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
