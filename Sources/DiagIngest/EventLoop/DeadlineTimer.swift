import CEpoll
import Glibc

/// A one-shot timerfd an epoll loop watches: the loop sleeps until a deadline that something
/// set (a report due, a stalled frame), never on a period. Disarmed, it never fires.
/// `timerfd_settime` is safe from any thread.
final class DeadlineTimer: Sendable {
    let descriptor: Int32

    init() throws(IngestError) {
        descriptor = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK) | Int32(TFD_CLOEXEC))
        guard descriptor >= 0 else { throw .system("cannot create a timerfd") }
    }

    deinit { close(descriptor) }

    /// Fires once, `nanoseconds` from now (at once when not positive), replacing any earlier arming.
    func arm(inNanoseconds nanoseconds: Int64) {
        // A zero it_value disarms: the soonest is one nanosecond.
        let delay = max(1, nanoseconds)
        var setting = itimerspec(
            it_interval: timespec(tv_sec: 0, tv_nsec: 0),
            it_value: timespec(tv_sec: Int(delay / 1_000_000_000), tv_nsec: Int(delay % 1_000_000_000)))
        _ = timerfd_settime(descriptor, 0, &setting, nil)
    }

    /// Reads the expiry, so that the level-triggered registration is quiet until the next arming.
    func acknowledge() {
        var expirations: UInt64 = 0
        _ = read(descriptor, &expirations, MemoryLayout<UInt64>.size)
    }

    /// CLOCK_MONOTONIC in nanoseconds: what deadlines are measured on (wall-clock steps do not move them).
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
