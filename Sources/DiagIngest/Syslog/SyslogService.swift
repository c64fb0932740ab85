import DiagModel
import CEpoll
import Foundation
import Glibc

/// What a syslog worker's turn serves.
enum SyslogTurn: Sendable {
    case datagram(SyslogDatagramSocket)
    case tcp(SyslogTCPConnection)
}

/// The syslog listeners' event loop, built like diagd's own (`SocketService`): one thread
/// ("diagd-syslog") sleeps in `epoll_wait` on the datagram socket, the TCP listening socket, its
/// connections, two deadline timers and the stop eventfd; it accepts TCP clients itself and
/// hands what has bytes waiting to two workers. Nothing wakes on a period: the timers are armed
/// only while a report waits for its interval or a TCP connection holds a partial frame.
final class SyslogService: Sendable {
    private enum Token {
        // Connections count from 1 up; the wake token is 0.
        static let datagram = UInt64.max
        static let listener = UInt64.max - 1
        static let reportTimer = UInt64.max - 2
        static let frameTimer = UInt64.max - 3
    }

    static let workerCount = 2
    /// Per worker: a whole datagram (64 KiB and one byte to see one longer), or a TCP read.
    static let readSize = 256 << 10
    static let datagramEvents = Epoll.readable | Epoll.oneShot

    let epoll: Epoll
    private let intake: SyslogIntake
    private let datagram: SyslogDatagramSocket?
    private let tcp: SyslogTCPListener?
    private let reportTimer: DeadlineTimer
    private let stopRequest: StopRequest
    private let finished = DispatchSemaphore(value: 0)

    /// Watches the listeners made on `epoll`; `start` runs the loop.
    init(epoll: Epoll, intake: SyslogIntake, datagram: SyslogDatagramSocket?, tcp: SyslogTCPListener?, stopRequest: StopRequest) throws(IngestError) {
        self.epoll = epoll
        self.intake = intake
        self.datagram = datagram
        self.tcp = tcp
        self.stopRequest = stopRequest
        reportTimer = try DeadlineTimer()
        try epoll.add(reportTimer.descriptor, events: Epoll.readable, token: Token.reportTimer)
        if let datagram { try epoll.add(datagram.descriptor, events: Self.datagramEvents, token: Token.datagram) }
        if let tcp {
            try epoll.add(tcp.descriptor, events: Epoll.readable, token: Token.listener)
            try epoll.add(tcp.deadlines.timer.descriptor, events: Epoll.readable, token: Token.frameTimer)
        }
        let timer = reportTimer
        intake.whenReportPending { timer.arm(inNanoseconds: $0) }
        stopRequest.onRequest { epoll.wake() }
    }

    func start() {
        let thread = Thread { [self] in
            ThreadName.setCurrent("diagd-syslog")
            run()
            finished.signal()
        }
        thread.start()
    }

    /// Waits until the loop and its workers have stopped (after the stop request), what they
    /// read is routed, and the sockets are closed.
    func waitUntilFinished() { finished.wait() }

    private func run() {
        let pool = WorkerPool<SyslogTurn>(threadCount: Self.workerCount, readSize: Self.readSize, name: "diagd-syslog") { [self] turn, buffer in
            switch turn {
            case .datagram(let socket):
                socket.serve(buffer: buffer)
                epoll.modify(socket.descriptor, events: Self.datagramEvents, token: Token.datagram)
            case .tcp(let connection):
                tcp?.serve(connection, buffer: buffer)
            }
        }
        let events = UnsafeMutableBufferPointer<epoll_event>.allocate(capacity: 256)
        defer { events.deallocate() }
        loop: while true {
            let count = epoll.wait(into: events)
            for index in 0..<count {
                switch events[index].data.u64 {
                case Epoll.wakeToken:
                    epoll.drainWake()
                    if stopRequest.isRequested { break loop }
                case Token.datagram:
                    if let datagram { pool.submit(SyslogTurn.datagram(datagram)) }
                case Token.listener:
                    tcp?.acceptWaiting()
                case Token.frameTimer:
                    tcp?.endStalledConnections()
                case Token.reportTimer:
                    reportTimer.acknowledge()
                    if let notYet = intake.reportIfDue(now: DaemonLog.now()) { reportTimer.arm(inNanoseconds: notYet) }
                case let token:
                    if let connection = tcp?.connection(token) { pool.submit(SyslogTurn.tcp(connection)) }
                }
            }
        }
        // Turns going on finish first (a datagram batch is routed, a TCP read waits for room).
        pool.stopAndWait()
        tcp?.closeAll()
        datagram?.close()
        intake.reportIfDue(now: DaemonLog.now(), force: true)
    }
}
