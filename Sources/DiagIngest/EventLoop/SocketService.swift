import DiagModel
import DiagProtocol
import Foundation
import CEpoll
import Glibc
import Synchronization

/// diagd's own socket served from one epoll loop: the loop thread accepts and hands connections
/// that have something to do to the worker pool; workers read, frame and parse (a
/// `RequestSession` per connection), queue records for the single writer and answer requests.
/// Nothing here wakes on a timer: the loop sleeps in `epoll_wait` until a socket or the
/// eventfd (stop) has something.
final class SocketService: Sendable {
    /// The token of the listening socket's registration (connections count from 1 up, so a
    /// serial never reaches it).
    private static let listenerToken = UInt64.max
    /// Per worker: large enough for ~1,000 records a read.
    static let readSize = 256 << 10
    /// Reads in one turn before the connection goes back in line behind the others.
    private static let readsPerTurn = 8

    let epoll: Epoll
    let quota: ConnectionQuota
    private let context: IngestContext
    private let listening: Int32
    private let connections = Mutex<[UInt64: Connection]>([:])
    private let serials = Atomic<Int>(0)
    private let pool: Mutex<WorkerPool<Connection>?> = Mutex(nil)
    private let acceptFailures: AcceptFailures

    /// Serves `listening` (a bound, listening stream socket this service does not own).
    init(listening: Int32, context: IngestContext, quota: ConnectionQuota) throws(IngestError) {
        self.listening = listening
        self.context = context
        self.quota = quota
        acceptFailures = AcceptFailures(label: "") { [context] in context.log.log(.error, $0, category: "connection") }
        epoll = try Epoll()
        let flags = fcntl(listening, F_GETFL)
        guard flags >= 0, fcntl(listening, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw .system("cannot make the listening socket non-blocking")
        }
        try epoll.add(listening, events: Epoll.readable, token: Self.listenerToken)
    }

    var threadCount: Int { pool.withLock { $0?.threadCount ?? 0 } }

    /// Runs the loop on the calling thread until `isStopping` holds after a wake.
    func run(workers: Int, isStopping: () -> Bool) {
        let pool = WorkerPool<Connection>(threadCount: workers, readSize: Self.readSize, name: "diagd-conn") { [self] connection, buffer in
            serve(connection, buffer: buffer)
        }
        self.pool.withLock { $0 = pool }
        let events = UnsafeMutableBufferPointer<epoll_event>.allocate(capacity: 256)
        defer { events.deallocate() }
        loop: while true {
            let count = epoll.wait(into: events)
            for index in 0..<count {
                let token = events[index].data.u64
                switch token {
                case Epoll.wakeToken:
                    epoll.drainWake()
                    if isStopping() { break loop }
                case Self.listenerToken:
                    acceptWaiting(pool)
                default:
                    connections.withLock { $0[token] }?.requestTurn()
                }
            }
        }
        epoll.remove(listening)
    }

    /// Stops the workers once their turns end and retires every connection.
    func shutDown() {
        pool.withLock { $0?.stop() }
        let open = connections.withLock { connections in defer { connections = [:] }; return Array(connections.values) }
        for connection in open { connection.retire() }
    }

    private func acceptWaiting(_ pool: WorkerPool<Connection>) {
        while true {
            // accept4 is not imported (it needs _GNU_SOURCE); diagd starts no programs, so setting
            // close-on-exec just after is as good.
            let client = accept(listening, nil, nil)
            if client < 0 {
                let code = errno
                if code == EINTR || code == ECONNABORTED { continue }
                if AcceptFailures.isRoutine(code) { return }
                guard acceptFailures.handle(code, listening: listening, refuse: refuse) else { return }
                continue
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
            admit(client, pool)
        }
    }

    private func admit(_ descriptor: Int32, _ pool: WorkerPool<Connection>) {
        let peer: PeerIdentity
        do {
            peer = try PeerIdentity.of(socket: descriptor)
        } catch {
            context.log.log(.error, "refused a client: \(error)")
            close(descriptor)
            return
        }
        do {
            try quota.admit(userID: peer.userID)
        } catch {
            refuse(descriptor, reason: error.description)
            context.log.log(.error, "refused a connection from pid \(peer.processID) (\(peer.process ?? "?"), uid \(peer.userID)): \(error.description); \(quota.open()) connections are open", category: "connection")
            return
        }
        let serial = serials.wrappingAdd(1, ordering: .relaxed).newValue
        let connection = Connection(descriptor: descriptor, peer: peer, serial: serial, epoll: epoll) { pool.submit($0) }
        connection.session = RequestSession(peer: peer, sink: connection, context: context)
        context.counters.add(context.counters.connections)
        context.counters.add(context.counters.openConnections)
        connections.withLock { $0[connection.token] = connection }
        do {
            try epoll.add(descriptor, events: Epoll.readable | Epoll.peerClosedWriting | Epoll.failed | Epoll.oneShot, token: connection.token)
        } catch {
            context.log.log(.error, "\(error)", category: "connection")
            finish(connection)
        }
    }

    /// One line saying why, then the connection closes.
    private func refuse(_ descriptor: Int32, reason: String) {
        let line = DaemonReply.error(reason).line
        _ = line.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        close(descriptor)
    }

    /// A worker's turns on `connection`, until no more are asked for.
    private func serve(_ connection: Connection, buffer: UnsafeMutableRawBufferPointer) {
        repeat {
            guard connection.session != nil else { return }
            connection.flushOutbox()
            readAvailable(connection, buffer)
            connection.session!.resume()
            if connection.isBroken { connection.session!.close() }
            if connection.session!.isClosed && (connection.isBroken || connection.pendingReplyBytes == 0) {
                finish(connection)
                return
            }
        } while connection.endTurn(readsInput: connection.session!.readsInput)
    }

    private func readAvailable(_ connection: Connection, _ buffer: UnsafeMutableRawBufferPointer) {
        var reads = 0
        while connection.session!.readsInput && reads < Self.readsPerTurn {
            let count = read(connection.descriptor, buffer.baseAddress, buffer.count)
            if count > 0 {
                reads += 1
                connection.session!.receive(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                // A short read has emptied the socket: spare the read that would say EAGAIN.
                if count < buffer.count { return }
            } else if count == 0 {
                connection.session!.endOfInput()
                return
            } else if errno == EINTR {
                continue
            } else {
                if errno != EAGAIN && errno != EWOULDBLOCK { connection.session!.close() }
                return
            }
        }
    }

    /// Retires a connection: its slot, its registration, and one log line when it misbehaved.
    private func finish(_ connection: Connection) {
        connection.retire()
        let session = connection.session
        connection.session = nil
        connections.withLock { _ = $0.removeValue(forKey: connection.token) }
        quota.release(userID: connection.peer.userID)
        context.counters.openConnections.wrappingSubtract(1, ordering: .relaxed)
        let peer = connection.peer
        let who = "pid \(peer.processID) (\(peer.process ?? "?"), uid \(peer.userID))"
        if connection.overflowed {
            context.log.log(.error, "dropped the connection of \(who): it did not read its replies (over \(Connection.outboxLimit) bytes waiting)", category: "connection")
        }
        if let session, session.invalidLines > 0, let first = session.firstRefusal {
            let invalid = session.invalidLines
            context.log.log(.error, "\(who) sent \(invalid) invalid line\(invalid == 1 ? "" : "s"); the first, \(first)", category: "connection")
        }
    }
}
