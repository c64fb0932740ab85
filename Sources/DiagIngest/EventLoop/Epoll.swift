import CEpoll
import Glibc

/// One epoll set and one eventfd that wakes its waiter: the only place diagd's socket threads
/// sleep. Registrations carry a 64-bit token (a connection's serial, never its descriptor, so
/// that an event for a descriptor closed and reused meanwhile finds no connection).
///
/// `epoll_ctl` is safe from any thread, so workers re-arm their connections themselves.
final class Epoll: Sendable {
    /// The token of the eventfd's own registration.
    static let wakeToken: UInt64 = 0

    let descriptor: Int32
    private let wakeDescriptor: Int32

    init() throws(IngestError) {
        let descriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard descriptor >= 0 else { throw .system("cannot create an epoll set") }
        let wake = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
        guard wake >= 0 else {
            let code = errno
            close(descriptor)
            throw .system("cannot create an eventfd", errno: code)
        }
        self.descriptor = descriptor
        wakeDescriptor = wake
        do throws(IngestError) {
            try add(wake, events: Self.readable, token: Self.wakeToken)
        } catch {
            close(wake)
            close(descriptor)
            throw error
        }
    }

    deinit {
        close(wakeDescriptor)
        close(descriptor)
    }

    static let readable = EPOLLIN.rawValue
    static let writable = EPOLLOUT.rawValue
    /// The connection is gone or failed (reported whatever the interest).
    static let failed = EPOLLHUP.rawValue | EPOLLERR.rawValue
    /// The peer shut down its writing side: end of input, once what it sent is read.
    static let peerClosedWriting = EPOLLRDHUP.rawValue
    /// Disarms the registration after one event until `modify` re-arms it: one worker at a time
    /// serves a connection.
    static let oneShot = EPOLLONESHOT.rawValue

    func add(_ socket: Int32, events: UInt32, token: UInt64) throws(IngestError) {
        var event = epoll_event(events: events, data: epoll_data_t(u64: token))
        guard epoll_ctl(descriptor, EPOLL_CTL_ADD, socket, &event) == 0 else {
            throw .system("cannot watch descriptor \(socket) with epoll")
        }
    }

    /// Re-arms a one-shot registration; false when the descriptor is no longer registered.
    @discardableResult
    func modify(_ socket: Int32, events: UInt32, token: UInt64) -> Bool {
        var event = epoll_event(events: events, data: epoll_data_t(u64: token))
        return epoll_ctl(descriptor, EPOLL_CTL_MOD, socket, &event) == 0
    }

    func remove(_ socket: Int32) {
        var event = epoll_event()
        _ = epoll_ctl(descriptor, EPOLL_CTL_DEL, socket, &event)
    }

    /// Blocks until at least one event (or a wake); fills `events` and returns how many.
    /// No timeout: an idle daemon does not wake.
    func wait(into events: UnsafeMutableBufferPointer<epoll_event>) -> Int {
        while true {
            let count = epoll_wait(descriptor, events.baseAddress, Int32(events.count), -1)
            if count >= 0 { return Int(count) }
            if errno != EINTR { return 0 }
        }
    }

    /// Wakes `wait` from any thread (the stop request).
    func wake() {
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// Empties the eventfd after a wake, so that it does not fire again.
    func drainWake() {
        var value: UInt64 = 0
        _ = read(wakeDescriptor, &value, MemoryLayout<UInt64>.size)
    }
}
