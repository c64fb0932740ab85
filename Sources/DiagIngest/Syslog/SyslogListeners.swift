/// The syslog listeners diagd was asked for (`--syslog-socket`, `--syslog-tcp`), bound when the
/// server is made (so a bad path or a taken port fails the start) and served by one event loop
/// (`SyslogService`) beside diagd's own socket.
final class SyslogListeners: Sendable {
    private let datagram: SyslogDatagramSocket?
    private let tcp: SyslogTCPListener?
    private let service: SyslogService?

    init(options: DaemonOptions, context: IngestContext, stopRequest: StopRequest) throws {
        guard options.syslogSocketPath != nil || options.syslogTCP != nil else {
            datagram = nil
            tcp = nil
            service = nil
            return
        }
        let intake = SyslogIntake(context: context)
        let epoll = try Epoll()
        datagram = try options.syslogSocketPath.map { path throws(IngestError) in
            try SyslogDatagramSocket(path: path, intake: intake)
        }
        tcp = try options.syslogTCP.map { text throws(IngestError) in
            try SyslogTCPListener(
                address: TCPAddress(parsing: text, option: "--syslog-tcp"), intake: intake, epoll: epoll,
                maximumConnections: options.maximumConnections)
        }
        service = try SyslogService(epoll: epoll, intake: intake, datagram: datagram, tcp: tcp, stopRequest: stopRequest)
    }

    /// What the daemon's first log line says it listens on.
    var summary: String {
        [datagram.map { "syslog datagrams on \($0.path)\($0.inherited ? " (from systemd)" : "")" }, tcp.map { "syslog over TCP on \($0.address)" }]
            .compactMap { $0 }.joined(separator: ", ")
    }

    func start() {
        service?.start()
    }

    /// After the stop request: waits for the listeners' loop to route what was read.
    func waitUntilFinished() {
        service?.waitUntilFinished()
    }
}
