import Foundation
import Glibc
import Synchronization

/// Set from any thread to make a sink's waits (connect, a blocked write) give up promptly:
/// diagd stopping must not wait for a stalled receiver.
public final class ForwardCancellation: Sendable {
    private let flag = Atomic<Bool>(false)
    /// What `cancel` must also wake (a read-ahead's channel), so that no wait polls the flag.
    private let onCancel = Mutex<[@Sendable () -> Void]>([])
    public init() {}

    public func cancel() {
        let actions = onCancel.withLock { actions in
            flag.store(true, ordering: .relaxed)
            defer { actions = [] }
            return actions
        }
        for action in actions { action() }
    }

    public var isCancelled: Bool { flag.load(ordering: .relaxed) }

    /// Runs `action` once cancelled: at once if already, else on `cancel()`'s thread.
    func whenCancelled(_ action: @escaping @Sendable () -> Void) {
        let now = onCancel.withLock { actions in
            if flag.load(ordering: .relaxed) { return true }
            actions.append(action)
            return false
        }
        if now { action() }
    }
}

/// A connected TCP socket, non-blocking, written with deadlines. Owns its descriptor.
final class TCPConnection {
    private let descriptor: Int32
    let peer: String

    private init(descriptor: Int32, peer: String) {
        self.descriptor = descriptor
        self.peer = peer
    }

    deinit { Glibc.close(descriptor) }

    /// Resolves `host` and connects to the first address that answers within `timeout` seconds.
    static func connect(host: String, port: UInt16, timeout: Double, cancellation: ForwardCancellation) throws(ForwardError) -> TCPConnection {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .retryable(reason: "cannot resolve \(host): \(String(cString: gai_strerror(status)))", after: nil)
        }
        defer { freeaddrinfo(first) }
        var reason = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let descriptor = socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { reason = String(cString: strerror(errno)); continue }
            let connection = TCPConnection(descriptor: descriptor, peer: "\(host):\(port)")
            // Nagle stays on: batches are written in large pieces, so it holds back at most the
            // last small segment of one while earlier data is unacknowledged.
            if Glibc.connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return connection }
            guard errno == EINPROGRESS else { reason = String(cString: strerror(errno)); continue }
            if let failure = connection.wait(for: Int16(POLLOUT), timeout: timeout, cancellation: cancellation) {
                reason = failure
                continue
            }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
            if error == 0 { return connection }
            reason = String(cString: strerror(error))
        }
        throw .retryable(reason: "cannot connect to \(host):\(port): \(reason)", after: nil)
    }

    /// Writes every byte of the batch, waiting at most `timeout` seconds without progress.
    func write(_ frames: FrameBatch, timeout: Double, cancellation: ForwardCancellation) throws(ForwardError) {
        try frames.withBytes { (bytes) throws(ForwardError) in try write(bytes, timeout: timeout, cancellation: cancellation) }
    }

    /// Writes every byte, waiting at most `timeout` seconds without progress.
    func write(_ bytes: UnsafeBufferPointer<UInt8>, timeout: Double, cancellation: ForwardCancellation) throws(ForwardError) {
        var offset = 0
        while offset < bytes.count {
            let sent = send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            if sent > 0 {
                offset += sent
                continue
            }
            guard sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
                throw .retryable(reason: "sending to \(peer) failed: \(String(cString: strerror(errno)))", after: nil)
            }
            if let failure = wait(for: Int16(POLLOUT), timeout: timeout, cancellation: cancellation) {
                throw .retryable(reason: "sending to \(peer): \(failure)", after: nil)
            }
        }
    }

    /// True once the peer closed or reset the connection. A syslog receiver never writes, so
    /// anything readable is the end of the stream (or an error).
    var isClosedByPeer: Bool {
        // POLLRDHUP (0x2000, Linux): the peer shut its side down; Glibc's module does not export it.
        let peerHangUp: Int16 = 0x2000
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN) | peerHangUp, revents: 0)
        guard poll(&entry, 1, 0) > 0 else { return false }
        var scratch = [UInt8](repeating: 0, count: 512)
        let count = recv(descriptor, &scratch, scratch.count, Int32(MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) || entry.revents & peerHangUp != 0
    }

    /// Bytes written but not yet acknowledged by the peer's TCP (`SIOCOUTQ`).
    var unacknowledgedBytes: Int {
        var count: Int32 = 0
        guard ioctl(descriptor, UInt(TIOCOUTQ), &count) == 0 else { return 0 }
        return Int(count)
    }

    /// Waits for `events`; returns why it gave up (timeout, cancellation, an error), or nil.
    private func wait(for events: Int16, timeout: Double, cancellation: ForwardCancellation) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if cancellation.isCancelled { return "cancelled (diagd is stopping)" }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, 100)
            if ready < 0 && errno != EINTR { return String(cString: strerror(errno)) }
            if ready > 0 {
                if entry.revents & (Int16(POLLERR) | Int16(POLLHUP)) != 0 {
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
                    return error == 0 ? "the connection was closed" : String(cString: strerror(error))
                }
                return nil
            }
        }
        return "no progress for \(Int(timeout)) s"
    }
}

@available(*, unavailable) extension TCPConnection: Sendable {}
