import DiagModel
import Glibc
import Synchronization

/// One client connection: its descriptor, the peer the kernel vouches for, and its replies.
///
/// Replies come from two threads (the connection's own, and the writer answering `sync`), so
/// they go through `send`, which never blocks: what the socket cannot take now waits in the
/// outbox, which the connection's thread flushes when the socket can take more.
final class Connection: Sendable {
    private struct Outbox {
        var pending: [UInt8] = []
        var broken = false
        var overflowed = false
    }

    /// A client that lets this many reply bytes pile up is not reading them; it is dropped.
    static let outboxLimit = 4 << 20

    let descriptor: Int32
    let peer: PeerIdentity
    let serial: Int
    private let outbox = Mutex(Outbox())
    /// Lines refused on this connection, and the first reason, for the daemon's log at close.
    let invalidLines = Atomic<Int>(0)
    let firstRefusal = Mutex<String?>(nil)

    init(descriptor: Int32, peer: PeerIdentity, serial: Int) {
        self.descriptor = descriptor
        self.peer = peer
        self.serial = serial
    }

    deinit { close(descriptor) }

    var isBroken: Bool { outbox.withLock { $0.broken } }
    /// Whether the connection was dropped because its client did not read its replies.
    var overflowed: Bool { outbox.withLock { $0.overflowed } }
    var hasPendingReplies: Bool { outbox.withLock { !$0.pending.isEmpty } }

    /// Sends one JSON value and a newline, or queues it behind earlier replies.
    func send(_ value: JSONValue) {
        var writer = JSONWriter(reservingCapacity: 64)
        writer.append(value)
        writer.bytes.append(UInt8(ascii: "\n"))
        send(bytes: writer.bytes)
    }

    func send(bytes: [UInt8]) {
        outbox.withLock { box in
            guard !box.broken else { return }
            if box.pending.isEmpty {
                let written = writeNow(bytes[...])
                guard written >= 0 else { box.broken = true; return }
                if written < bytes.count { box.pending.append(contentsOf: bytes[written...]) }
            } else {
                box.pending.append(contentsOf: bytes)
            }
            if box.pending.count > Self.outboxLimit {
                box.broken = true
                box.overflowed = true
                box.pending = []
                shutdown(descriptor, Int32(SHUT_RDWR))
            }
        }
    }

    /// Writes what waits in the outbox as far as the socket takes it now.
    func flushOutbox() {
        outbox.withLock { box in
            guard !box.broken, !box.pending.isEmpty else { return }
            let written = writeNow(box.pending[...])
            if written < 0 { box.broken = true; box.pending = []; return }
            box.pending.removeFirst(written)
        }
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

    /// Queues bytes, then waits until at most `threshold` bytes wait: for the connection's own
    /// thread (ring dumps, streams), where a slow reader should slow the sender down.
    func sendWaiting(_ bytes: [UInt8], threshold: Int = 256 << 10) -> Bool {
        send(bytes: bytes)
        while true {
            let (pending, broken) = outbox.withLock { ($0.pending.count, $0.broken) }
            if broken { return false }
            if pending <= threshold { return true }
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&poller, 1, 1000)
            flushOutbox()
        }
    }
}
