import DiagCommandLine
import DiagStore

/// The `diag` command: only groups the subcommands; `Commands/` holds one file per subcommand.
public struct Diag: ParsableCommand {
    public static let version = "0.1.0"

    public static let configuration = CommandConfiguration(
        commandName: "diag",
        abstract: "Collect, query and bundle the logs of the sync system's components.",
        version: "diag \(version)",
        subcommands: [
            ShowCommand.self,
            SignpostsCommand.self,
            StreamCommand.self,
            StatsCommand.self,
            PatternsCommand.self,
            DiffCommand.self,
            ReportCommand.self,
            ImportCommand.self,
            IndexCommand.self,
            GenerateCommand.self,
            CollectCommand.self,
            FeedbackCommand.self,
            VerifyCommand.self,
            CacheCommand.self,
            PredicateCommand.self,
            ConfigCommand.self,
            ExportCommand.self,
            FleetCommand.self,
            EraseCommand.self,
        ],
        seeAlso: ["diagd(8)"])

    public init() {}

    public func run() throws {
        throw CleanExit.helpRequest()
    }

    /// What the process sets up before any command opens a store: SQLite's small allocations
    /// through a cache per thread (`Database.useThreadCaches`), SQLite's memory count off
    /// (`Database.turnOffMemoryStatistics`), a mutex every reading thread took per allocation,
    /// and each sort's memory bounded whatever a chunk's page size (`Database.boundSortMemory`).
    public static func prepareProcess() {
        Database.useThreadCaches()
        Database.turnOffMemoryStatistics()
        Database.boundSortMemory()
    }
}
