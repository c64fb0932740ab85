import DiagCommandLine
import SyncDemoKit

/// `transport`: uploads and downloads record batches for the container, like `cloudd`.
struct TransportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transport",
        abstract: "Upload and download record batches for the container (the sample's cloudd).",
        discussion: """
            Listens on <work>/sockets/transport.sock and keeps the container's "server" in \
            <work>/server/<container>/: 'upload' stores a batch (throttled past its request rate), \
            'commit' ends an export and asks the notifier to push, 'status' lists committed \
            exports, 'download' copies another store's batches to a device, 'shutdown' stops.
            """)

    @Option(help: "The scenario's work folder.", valueName: "dir")
    var work: String

    @Option(help: "A fault to play: throttle (rate-limit uploads) or corrupt-attachment (damage one asset on download).", valueName: "fault")
    var fault: DemoFault?

    func run() throws {
        let layout = WorkLayout(path: work)
        try layout.create()
        let server = try MessageServer(path: layout.socket(.transport))
        let transport = RecordTransport(layout: layout, fault: fault)
        transport.logger.log("transport listening for container \(SyncDemoNames.container, privacy: .public)")
        server.serve { request in try transport.handle(request) }
        transport.logger.log("transport stopping for container \(SyncDemoNames.container, privacy: .public)")
        if !ComponentExit.flushLogs(component: "transport") { throw ExitCode.failure }
    }
}

TransportCommand.main()
