import Synchronization

/// When each TCP syslog connection holding a partial frame must have sent more, and the one
/// timer that wakes the syslog loop at the soonest of them. A connection without a partial frame
/// has no deadline, so idle connections cost no wake-ups; a stalled one is closed after
/// `SyslogTCPListener.stallSeconds` (it would hold a slot and its partial frame forever).
final class FrameDeadlines: Sendable {
    private struct State {
        var deadlines: [UInt64: (at: Int64, connection: SyslogTCPConnection)] = [:]
        /// When the timer is set to fire; nil when disarmed (or fired).
        var armedAt: Int64?
    }

    let timer: DeadlineTimer
    private let state = Mutex(State())

    init() throws(IngestError) {
        timer = try DeadlineTimer()
    }

    /// `connection` holds a partial frame: it must send more by `deadline` (`DeadlineTimer.now`).
    func set(_ connection: SyslogTCPConnection, deadline: Int64) {
        state.withLock { state in
            state.deadlines[connection.token] = (deadline, connection)
            if state.armedAt.map({ deadline < $0 }) ?? true {
                state.armedAt = deadline
                timer.arm(inNanoseconds: deadline - DeadlineTimer.now())
            }
        }
    }

    /// The connection sent more (or closed): no deadline until it holds a partial frame again.
    func clear(_ token: UInt64) {
        _ = state.withLock { $0.deadlines.removeValue(forKey: token) }
    }

    /// After the timer fired: takes the connections past their deadline and sets the timer for
    /// the soonest of the rest.
    func takeExpired(now: Int64) -> [SyslogTCPConnection] {
        timer.acknowledge()
        return state.withLock { state in
            var expired: [SyslogTCPConnection] = []
            var soonest: Int64?
            for (token, entry) in state.deadlines {
                if entry.at <= now {
                    expired.append(entry.connection)
                    state.deadlines[token] = nil
                } else {
                    soonest = min(soonest ?? entry.at, entry.at)
                }
            }
            state.armedAt = soonest
            if let soonest { timer.arm(inNanoseconds: soonest - now) }
            return expired
        }
    }
}
