import DiagCommandLine
import SyncDemoKit

/// `sync-demo`: plays a scenario with the four components as separate processes.
struct SyncDemo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync-demo",
        abstract: "Play a sync scenario with the sample's four components.",
        subcommands: [RunCommand.self])

    func run() throws {
        throw CleanExit.helpRequest()
    }
}

SyncDemo.main()
