import DiagModel
import CEpoll
import Glibc
import Synchronization

/// One client connection: its non-blocking descriptor, the peer the kernel vouches for, its
/// replies, and whose turn it is to serve it.
///
/// Replies come from the worker serving the connection and from the writer answering `sync`, so
/// they go through `send`, which never blocks: what the socket cannot take now waits in the
/// outbox until the event loop reports the socket writable.
///
/// Turns: the event loop's events and `requestTurn` (a stream has records, replies are waiting)
/// both hand the connection to the worker pool, but at most one worker serves it at a time; a
/// turn asked for during a turn makes that worker go round again. The epoll registration is
/// one-shot and re-armed only at the end of a turn, so the kernel does not report the socket
/// again meanwhile.
final class Connection: ReplySink {
    private struct State {
        var pending: [UInt8] = []
        /// How much of `pending` is written: advanced instead of moving the rest to the front.
        var pendingStart = 0
        var broken = false
        var overflowed = false
        var inTurn = false
        var turnAgain = false
        var closed = false

        var pendingCount: Int { pending.count - pendingStart }
    }

    /// A client that lets this many reply bytes pile up is not reading them; it is dropped.
    static let outboxLimit = 4 << 20

    let descriptor: Int32
    let peer: PeerIdentity
    let serial: Int
    private let state = Mutex(State())
    private let epoll: Epoll
    private let schedule: @Sendable (Connection) -> Void
    /// The connection's protocol state. Safe unguarded: only the worker holding the turn touches
    /// it, and the turn passes from worker to worker through `state`'s lock, which orders them.
    nonisolated(unsafe) var session: RequestSession?

    /// `schedule` hands the connection to a worker for a turn.
    init(descriptor: Int32, peer: PeerIdentity, serial: Int, epoll: Epoll, schedule: @escaping @Sendable (Connection) -> Void) {
        self.descriptor = descriptor
        self.peer = peer
        self.serial = serial
        self.epoll = epoll
        self.schedule = schedule
    }

    deinit { close(descriptor) }

    var token: UInt64 { UInt64(serial) }
    var isBroken: Bool { state.withLock { $0.broken } }
    /// Whether the connection was dropped because its client did not read its replies.
    var overflowed: Bool { state.withLock { $0.overflowed } }
    var pendingReplyBytes: Int { state.withLock { $0.pendingCount } }

    func send(bytes: [UInt8]) {
        let needsTurn = state.withLock { box -> Bool in
            guard !box.broken else { return false }
            if box.pendingCount == 0 {
                box.pending.removeAll(keepingCapacity: box.pending.capacity <= 64 << 10)
                box.pendingStart = 0
                let written = writeNow(bytes[...])
                guard written >= 0 else { box.broken = true; return !box.closed && !box.inTurn }
                if written == bytes.count { return false }
                box.pending.append(contentsOf: bytes[written...])
            } else {
                box.pending.append(contentsOf: bytes)
            }
            if box.pendingCount > Self.outboxLimit {
                box.broken = true
                box.overflowed = true
                box.pending = []
                box.pendingStart = 0
                shutdown(descriptor, Int32(SHUT_RDWR))
            }
            // A turn re-arms the registration for writability (or closes a broken connection);
            // the one going now does so at its end.
            return !box.closed && !box.inTurn
        }
        if needsTurn { requestTurn() }
    }

    /// Writes what waits in the outbox as far as the socket takes it now.
    func flushOutbox() {
        state.withLock { box in
            guard !box.broken, box.pendingCount > 0 else { return }
            let written = writeNow(box.pending[box.pendingStart...])
            if written < 0 { box.broken = true; box.pending = []; box.pendingStart = 0; return }
            box.pendingStart += written
            if box.pendingCount == 0 {
                box.pending.removeAll(keepingCapacity: box.pending.capacity <= 64 << 10)
                box.pendingStart = 0
            }
        }
    }

    /// Asks for a turn: now if none is going, else right after the one going.
    func requestTurn() {
        let start = state.withLock { box -> Bool in
            guard !box.closed else { return false }
            if box.inTurn { box.turnAgain = true; return false }
            box.inTurn = true
            return true
        }
        if start { schedule(self) }
    }

    /// Ends a turn: true when another was asked for meanwhile (the caller goes round again);
    /// else re-arms the registration with what the connection waits for next.
    func endTurn(readsInput: Bool) -> Bool {
        state.withLock { box in
            if box.turnAgain {
                box.turnAgain = false
                return true
            }
            box.inTurn = false
            guard !box.closed else { return false }
            // Not the peer's half-close while not reading: it would be reported on every re-arm.
            var events = Epoll.oneShot | Epoll.failed
            if readsInput { events |= Epoll.readable | Epoll.peerClosedWriting }
            if box.pendingCount > 0 { events |= Epoll.writable }
            epoll.modify(descriptor, events: events, token: token)
            return false
        }
    }

    /// Stops serving: no more turns, the registration removed. The descriptor closes with the
    /// last reference (a `sync` still queued may yet answer on it).
    func retire() {
        state.withLock { box in
            box.closed = true
            box.turnAgain = false
        }
        epoll.remove(descriptor)
    }

    /// Writes without blocking; the count written, or -1 when the peer is gone.
    private func writeNow(_ bytes: ArraySlice<UInt8>) -> Int {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            }
            if count > 0 { offset += count; continue }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return offset }
            return -1
        }
        return offset
    }
}
