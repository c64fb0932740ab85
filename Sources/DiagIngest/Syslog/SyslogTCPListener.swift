import DiagModel
import Foundation
import Glibc

/// `--syslog-tcp HOST:PORT`: RFC 6587 over TCP, one thread per connection, within diagd's
/// `--max-connections` shared with its own socket. TCP has back-pressure: a connection waits
/// for room in the writer's queue, so nothing it sent is lost while diagd runs. The kernel
/// names no process for a TCP peer: records carry the peer's address in `metadata.syslog.peer`.
///
/// A connection that holds a partial frame for `idleSeconds` without sending more is closed
/// (a slow or stalled client must not keep a thread forever).
final class SyslogTCPListener: @unchecked Sendable {
    // Safe: `descriptor` is read by the accepting thread only, and closed by it after its loop.
    static let idleSeconds: Int32 = 30
    let address: TCPAddress
    private let descriptor: Int32
    private let intake: SyslogIntake
    private let stopRequest: StopRequest
    private let maximumConnections: Int
    private let finished = DispatchSemaphore(value: 0)

    init(address: TCPAddress, intake: SyslogIntake, stopRequest: StopRequest, maximumConnections: Int) throws(IngestError) {
        self.address = address
        self.intake = intake
        self.stopRequest = stopRequest
        self.maximumConnections = maximumConnections
        descriptor = try address.listen()
    }

    func start() {
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "diagd-syslog-tcp"
        thread.start()
    }

    func waitUntilFinished() { finished.wait() }

    private func run() {
        defer { Glibc.close(descriptor) }
        let counters = intake.context.counters
        while !stopRequest.isRequested {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            intake.reportIfDue(now: DaemonLog.now())
            guard poll(&poller, 1, 250) > 0 else { continue }
            let client = accept(descriptor, nil, nil)
            guard client >= 0 else { continue }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let peer = TCPAddress.peerName(of: client)
            if counters.openConnections.load(ordering: .relaxed) >= maximumConnections {
                intake.context.log.log(.error, "syslog-tcp: refused a connection from \(peer): \(maximumConnections) connections are open", category: "connection")
                Glibc.close(client)
                continue
            }
            counters.add(counters.connections)
            counters.add(counters.openConnections)
            let thread = Thread { [intake, stopRequest] in
                SyslogTCPConnection(descriptor: client, peer: peer, intake: intake, stopRequest: stopRequest).run()
                counters.openConnections.wrappingSubtract(1, ordering: .relaxed)
            }
            thread.name = "diagd-syslog-tcp-client"
            thread.stackSize = 1 << 20
            thread.start()
        }
    }
}

/// One TCP syslog client: frames, parses, queues (waiting for room), until it closes or errs.
struct SyslogTCPConnection {
    let descriptor: Int32
    let peer: String
    let intake: SyslogIntake
    let stopRequest: StopRequest

    func run() {
        defer { Glibc.close(descriptor) }
        var framer = SyslogStreamFramer()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
        defer { buffer.deallocate() }
        var idleSince = DaemonLog.now()
        while !stopRequest.isRequested {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 250)
            let now = DaemonLog.now()
            if ready == 0 {
                if framer.hasPartialFrame && now - idleSince > Int64(SyslogTCPListener.idleSeconds) * 1_000_000_000 {
                    intake.invalid("syslog-tcp \(peer): a partial frame waited \(SyslogTCPListener.idleSeconds) s for more bytes; connection closed")
                    return
                }
                continue
            }
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { return }
            idleSince = now
            var batch = intake.beginBatch(receiptTime: now)
            let failure = framer.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { frame in
                frame.withUnsafeBytes { bytes in
                    do throws(SyslogParseError) {
                        let message = try SyslogParser.parse(bytes)
                        var record = message.record(peer: nil, receiptTime: now, transport: "tcp")
                        if case .object(var syslog)? = record.metadata?["syslog"] {
                            syslog["peer"] = .string(peer)
                            record.metadata?["syslog"] = .object(syslog)
                        }
                        batch.add(record, size: bytes.count + 256)
                    } catch {
                        intake.invalid("syslog-tcp \(peer): \(error.description)")
                    }
                }
            }
            intake.finish(&batch, wait: true)
            if let failure {
                intake.invalid("syslog-tcp \(peer): \(failure); connection closed")
                return
            }
        }
    }
}
