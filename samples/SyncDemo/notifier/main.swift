import DiagCommandLine
import SyncDemoKit

/// `notifier`: delivers push notifications for the container's topic, like `apsd`.
struct NotifierCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifier",
        abstract: "Deliver push notifications for the container's topic (the sample's apsd).",
        discussion: """
            Listens on <work>/sockets/notifier.sock. 'register' subscribes a device to a topic; \
            'push' delivers a notification to every other device subscribed to the topic, as a \
            file in <work>/push/<device>/; 'shutdown' stops.
            """)

    @Option(help: "The scenario's work folder.", valueName: "dir")
    var work: String

    @Option(help: "A fault to play: push-lost (drop the pushes).", valueName: "fault")
    var fault: DemoFault?

    func run() throws {
        let layout = WorkLayout(path: work)
        try layout.create()
        let server = try MessageServer(path: layout.socket(.notifier))
        let notifier = PushNotifier(layout: layout, losesPushes: fault == .pushLost)
        notifier.logger.log("notifier listening on \(server.path, privacy: .public)")
        server.serve { request in try notifier.handle(request) }
        notifier.logger.log("notifier stopping")
        if !ComponentExit.flushLogs(component: "notifier") { throw ExitCode.failure }
    }
}

NotifierCommand.main()
