/// The syslog listeners diagd was asked for (`--syslog-socket`, `--syslog-tcp`), bound when the
/// server is made (so a bad path or a taken port fails the start) and run beside its socket.
final class SyslogListeners: Sendable {
    private let datagram: SyslogDatagramSocket?
    private let tcp: SyslogTCPListener?

    init(options: DaemonOptions, context: IngestContext, stopRequest: StopRequest) throws {
        let intake = SyslogIntake(context: context)
        datagram = try options.syslogSocketPath.map { path throws(IngestError) in
            try SyslogDatagramSocket(path: path, intake: intake, stopRequest: stopRequest)
        }
        tcp = try options.syslogTCP.map { text throws(IngestError) in
            try SyslogTCPListener(
                address: TCPAddress(parsing: text, option: "--syslog-tcp"), intake: intake, stopRequest: stopRequest,
                maximumConnections: options.maximumConnections)
        }
    }

    /// What the daemon's first log line says it listens on.
    var summary: String {
        [datagram.map { "syslog datagrams on \($0.path)\($0.inherited ? " (from systemd)" : "")" }, tcp.map { "syslog over TCP on \($0.address)" }]
            .compactMap { $0 }.joined(separator: ", ")
    }

    func start() {
        datagram?.start()
        tcp?.start()
    }

    /// After the stop request: waits for the listeners' threads to route what they read.
    func waitUntilFinished() {
        datagram?.waitUntilFinished()
        tcp?.waitUntilFinished()
    }
}
