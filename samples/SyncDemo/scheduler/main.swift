import DiagCommandLine
import SyncDemoKit

/// `scheduler`: decides when the sync core's background activities may run, like `dasd`.
struct SchedulerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scheduler",
        abstract: "Decide when background sync activities may run (the sample's dasd).",
        discussion: """
            Listens on <work>/sockets/scheduler.sock. A 'submit' asks to run an activity \
            (com.example.sync.activity.export.<store UUID>, …): the scheduler scores it from the \
            system's load and how long it has waited, and answers run (with the activity's ID) \
            or defer (with a retry delay). 'complete' reports how it went; 'shutdown' stops.
            """)

    @Option(help: "The scenario's work folder.", valueName: "dir")
    var work: String

    func run() throws {
        let layout = WorkLayout(path: work)
        try layout.create()
        let server = try MessageServer(path: layout.socket(.scheduler))
        let scheduler = ActivityScheduler()
        scheduler.logger.log("scheduler listening on \(server.path, privacy: .public)")
        server.serve { request in try scheduler.handle(request) }
        scheduler.logger.log("scheduler stopping")
        if !ComponentExit.flushLogs(component: "scheduler") { throw ExitCode.failure }
    }
}

SchedulerCommand.main()
