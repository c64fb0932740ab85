import DiagModel
import Glibc
import Synchronization

/// `--syslog-tcp HOST:PORT`: RFC 6587 over TCP, served from the syslog loop (`SyslogService`):
/// the loop thread accepts, and a connection with bytes waiting gets a turn on one of the loop's
/// workers, which reads, frames (`SyslogStreamFramer`) and parses, then re-arms its one-shot
/// registration. An idle connection costs a descriptor and its partial frame, no thread.
///
/// Connections count against diagd's `--max-connections`, shared with its own socket; one over
/// it is closed at once and named in diagd's log (TCP peers have no UID, so no per-user share).
/// TCP has back-pressure: a turn waits for room in the writer's queue, so nothing a connection
/// sent is lost while diagd runs. The kernel names no process for a TCP peer: records carry the
/// peer's address in `metadata.syslogPeer`.
final class SyslogTCPListener: Sendable {
    /// A connection holding a partial frame this long without sending more is closed.
    static let stallSeconds: Int64 = 30
    /// Reads in one turn before the connection goes back in line behind the others.
    static let readsPerTurn = 8
    /// A connection's registration: one worker at a time, re-armed at the end of its turn.
    static let connectionEvents = Epoll.readable | Epoll.peerClosedWriting | Epoll.failed | Epoll.oneShot

    let address: TCPAddress
    /// The listening socket (non-blocking; the loop accepts until EAGAIN).
    let descriptor: Int32
    let deadlines: FrameDeadlines
    private let intake: SyslogIntake
    private let epoll: Epoll
    private let maximumConnections: Int
    private let connections = Mutex<[UInt64: SyslogTCPConnection]>([:])
    /// Connection tokens count from 1 up; `SyslogService`'s own tokens are at the top of the range.
    private let serials = Atomic<UInt64>(0)
    private let acceptFailures: AcceptFailures

    init(address: TCPAddress, intake: SyslogIntake, epoll: Epoll, maximumConnections: Int) throws(IngestError) {
        self.address = address
        self.intake = intake
        self.epoll = epoll
        self.maximumConnections = maximumConnections
        acceptFailures = AcceptFailures(label: "syslog-tcp: ") { [intake] in intake.context.log.log(.error, $0, category: "connection") }
        deadlines = try FrameDeadlines()
        descriptor = try address.listen()
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else {
            Glibc.close(descriptor)
            throw .system("cannot make the syslog TCP socket on \(address) non-blocking")
        }
    }

    func connection(_ token: UInt64) -> SyslogTCPConnection? {
        connections.withLock { $0[token] }
    }

    /// On the loop thread: admits every connection waiting, or closes it when diagd is full.
    func acceptWaiting() {
        let counters = intake.context.counters
        while true {
            let client = accept(descriptor, nil, nil)
            if client < 0 {
                let code = errno
                if code == EINTR || code == ECONNABORTED { continue }
                if AcceptFailures.isRoutine(code) { return }
                // A TCP peer has no line to read: the refusal is the close.
                guard acceptFailures.handle(code, listening: descriptor, refuse: { client, _ in Glibc.close(client) }) else { return }
                continue
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
            let peer = TCPAddress.peerName(of: client)
            if counters.openConnections.load(ordering: .relaxed) >= maximumConnections {
                intake.context.log.log(.error, "syslog-tcp: refused a connection from \(peer): \(maximumConnections) connections are open (--max-connections)", category: "connection")
                Glibc.close(client)
                continue
            }
            counters.add(counters.connections)
            counters.add(counters.openConnections)
            let connection = SyslogTCPConnection(descriptor: client, peer: peer, token: serials.add(1, ordering: .relaxed).newValue)
            connections.withLock { $0[connection.token] = connection }
            do {
                try epoll.add(client, events: Self.connectionEvents, token: connection.token)
            } catch {
                intake.context.log.log(.error, "syslog-tcp \(peer): \(error)", category: "connection")
                finish(connection)
            }
        }
    }

    /// A worker's turn: reads what is waiting, routes its messages, re-arms the registration.
    func serve(_ connection: SyslogTCPConnection, buffer: UnsafeMutableRawBufferPointer) {
        var didRead = false
        for _ in 0..<Self.readsPerTurn {
            let count = read(connection.descriptor, buffer.baseAddress, buffer.count)
            if count > 0 {
                didRead = true
                // No deadline while its bytes are routed (a turn may wait for the writer).
                deadlines.clear(connection.token)
                guard route(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), of: connection) else { return finish(connection) }
                // A short read has emptied the socket: spare the read that would say EAGAIN.
                if count < buffer.count { break }
            } else if count == 0 {
                return finish(connection)
            } else if errno == EINTR {
                continue
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                break
            } else {
                return finish(connection)
            }
        }
        if didRead && connection.framer.hasPartialFrame {
            deadlines.set(connection, deadline: DeadlineTimer.now() + Self.stallSeconds * 1_000_000_000)
        }
        // Last: once re-armed, another worker may take the connection's next turn.
        epoll.modify(connection.descriptor, events: Self.connectionEvents, token: connection.token)
    }

    /// On the loop thread, when the deadline timer fires: ends the connections that stalled in a
    /// frame, each refusal counted and its reason recorded before the shutdown, which wakes their
    /// registration for a worker to finish them. Counted later, by the turn that read the end, a
    /// client could see its connection closed, and the daemon stop, before the turn came: a CI
    /// run under load stopped diagd with the refusal neither counted nor logged.
    func endStalledConnections() {
        for connection in deadlines.takeExpired(now: DeadlineTimer.now()) {
            intake.invalid("syslog-tcp \(connection.peer): a partial frame waited \(Self.stallSeconds) s for more bytes; connection closed")
            shutdown(connection.descriptor, Int32(SHUT_RDWR))
        }
    }

    /// After the loop and its workers stopped: ends every connection and the listening socket.
    func closeAll() {
        let open = connections.withLock { Array($0.values) }
        for connection in open { finish(connection) }
        Glibc.close(descriptor)
    }

    /// Frames and parses one read; false when the stream cannot go on (its reason is counted).
    private func route(_ bytes: UnsafeRawBufferPointer, of connection: SyslogTCPConnection) -> Bool {
        let now = DaemonLog.now()
        let peer = connection.peer
        var batch = intake.beginBatch(receiptTime: now)
        // The reader's scratch lives for one read, as the batch does, not for the connection:
        // an idle connection that once sent a 64 KiB message keeps nothing of it.
        var rows = SyslogRowReader()
        let failure = connection.framer.feed(bytes) { bytes in
            if batch.takeSyslog(bytes, with: &rows, transport: "tcp", peer: peer, identity: nil, size: bytes.count + 256) {
                return
            }
            do throws(SyslogParseError) {
                let message = try SyslogParser.parse(bytes)
                var record = message.record(peer: nil, receiptTime: now, transport: "tcp")
                record.metadata?["syslogPeer"] = .string(peer)
                batch.add(record, size: bytes.count + 256)
            } catch {
                intake.invalid("syslog-tcp \(peer): \(error.description)")
            }
        }
        intake.finish(&batch, wait: true)
        if let failure {
            intake.invalid("syslog-tcp \(peer): \(failure); connection closed")
            return false
        }
        return true
    }

    /// Retires a connection: its registration, its slot; the peer sees the end at once.
    private func finish(_ connection: SyslogTCPConnection) {
        epoll.remove(connection.descriptor)
        shutdown(connection.descriptor, Int32(SHUT_RDWR))
        deadlines.clear(connection.token)
        let removed = connections.withLock { $0.removeValue(forKey: connection.token) }
        if removed != nil { intake.context.counters.openConnections.wrappingSubtract(1, ordering: .relaxed) }
    }
}

/// One TCP syslog client. Its descriptor closes with the last reference (a turn or a deadline
/// may still hold one after `finish`), so no other socket can take its number meanwhile.
final class SyslogTCPConnection: Sendable {
    let descriptor: Int32
    let peer: String
    let token: UInt64
    /// Safe unguarded: only the worker holding the connection's turn uses it, and turns pass
    /// from worker to worker through the one-shot re-arm (`epoll_ctl`), which orders them.
    nonisolated(unsafe) var framer = SyslogStreamFramer()

    init(descriptor: Int32, peer: String, token: UInt64) {
        self.descriptor = descriptor
        self.peer = peer
        self.token = token
    }

    deinit { Glibc.close(descriptor) }
}
