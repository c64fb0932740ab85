import Glibc
import Synchronization

/// What an accept loop does when `accept` fails for another reason than "nothing waiting".
///
/// Out of descriptors (EMFILE for the process, ENFILE for the system), the waiting connection
/// cannot be taken, the listening socket stays readable, and a level-triggered loop wakes at
/// once, for ever: diagd held to 24 descriptors with 20 clients waiting used 1.76 cores and
/// wrote 363,815 lines to stderr in 5 s, each one also a record of its own in the store, where
/// through the size quota they would push out the records a user collected diagd for.
///
/// So one descriptor is held in reserve (`/dev/null`): it is let go to take the waiting
/// connection, which is refused at once (with a line saying why where the protocol has one,
/// `refuse`), and taken back; the loop drains its backlog and sleeps again. Other failures
/// (ENOMEM, ENOBUFS: memory the kernel lacks for now), or no reserve to let go, make the loop
/// thread wait `backoffSeconds` before it looks again, instead of spinning. The log says what
/// happened once, then at most every `reportSeconds` with how many connections were refused or
/// failed meanwhile.
///
/// Used on one loop thread; the lock only makes it `Sendable` for the service that owns it.
final class AcceptFailures: Sendable {
    /// Between two lines in the log about the same kind of failure.
    static let reportSeconds = 10.0
    /// How long the loop thread waits after a failure it cannot work around.
    static let backoffSeconds = 0.02

    private struct State {
        /// The reserve descriptor, -1 when it could not be taken back.
        var spare: Int32
        /// Connections refused and accepts failed since the last line in the log.
        var refused = 0
        var failed = 0
        var lastReport = -Double.infinity
    }
    private let state: Mutex<State>
    /// Names the listener in the log ("", or "syslog-tcp: ").
    private let label: String
    private let log: @Sendable (String) -> Void

    init(label: String, log: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.log = log
        state = Mutex(State(spare: Self.openSpare()))
    }

    deinit {
        let spare = state.withLock { $0.spare }
        if spare >= 0 { close(spare) }
    }

    /// Whether `code`, accept's errno, means "take nothing, it is over for this wake"
    /// (EAGAIN) or "try again now" (EINTR, ECONNABORTED): the failures `handle` is not for.
    static func isRoutine(_ code: Int32) -> Bool {
        code == EAGAIN || code == EWOULDBLOCK || code == EINTR || code == ECONNABORTED
    }

    /// After `accept(listening)` failed with `code` (not routine): refuses the waiting
    /// connection through the reserve, handing it to `refuse` (which closes it), or waits the
    /// backoff. Returns true when the loop should accept again (a connection was refused: more
    /// may wait), false when it should go back to sleep in `epoll_wait`.
    func handle(_ code: Int32, listening: Int32, refuse: (_ descriptor: Int32, _ reason: String) -> Void) -> Bool {
        var refused = false
        if code == EMFILE || code == ENFILE {
            let spare = state.withLock { state in
                defer { state.spare = -1 }
                return state.spare
            }
            if spare >= 0 {
                close(spare)
                let client = accept(listening, nil, nil)
                let acceptError = errno
                if client >= 0 {
                    refuse(client, Self.reason(code))
                    refused = true
                }
                // Taken back after the refusal closed the client's descriptor (one was just
                // freed either way); nothing waiting (EAGAIN) ends the drain without a failure.
                let taken = Self.openSpare()
                state.withLock { $0.spare = taken }
                if client < 0 && Self.isRoutine(acceptError) { return false }
            } else {
                let taken = Self.openSpare()
                state.withLock { $0.spare = taken }
            }
        }
        report(code, refused: refused)
        if refused { return true }
        usleep(useconds_t(Self.backoffSeconds * 1_000_000))
        return false
    }

    /// What a refused client is told.
    static func reason(_ code: Int32) -> String {
        var limit = rlimit()
        let limitText = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? " (its limit is \(limit.rlim_cur))" : ""
        return code == ENFILE
            ? "diagd cannot take the connection: the system is out of file descriptors (ENFILE); try again later"
            : "diagd cannot take the connection: it is out of file descriptors\(limitText) (EMFILE); try again later, "
                + "or raise diagd's limit (ulimit -n, systemd's LimitNOFILE=) or lower its --max-connections"
    }

    private func report(_ code: Int32, refused: Bool) {
        let now = Self.seconds()
        let line: String? = state.withLock { state in
            if refused { state.refused += 1 } else { state.failed += 1 }
            guard now - state.lastReport >= Self.reportSeconds else { return nil }
            defer { (state.refused, state.failed, state.lastReport) = (0, 0, now) }
            let since = state.lastReport.isFinite ? " in the last \(Int(now - state.lastReport)) s" : ""
            return "\(label)accept failed: \(String(cString: strerror(code))) (errno \(code))\(since): "
                + "\(Self.count(state.refused, "connection")) refused at once, \(Self.count(state.failed, "accept")) failed; "
                + "said again at most every \(Int(Self.reportSeconds)) s"
        }
        if let line { log(line) }
    }

    private static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    private static func openSpare() -> Int32 {
        open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    private static func seconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
