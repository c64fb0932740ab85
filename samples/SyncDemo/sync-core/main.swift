import DiagCommandLine
import Foundation
import SyncDemoKit

/// `sync-core`: the app's persistence and sync layers (the `CoreData` and `CloudKit` senders).
struct SyncCoreCommand: ParsableCommand {
    enum Role: String, CaseIterable, ExpressibleByArgument {
        case export, `import`
    }

    static let configuration = CommandConfiguration(
        commandName: "sync-core",
        abstract: "Keep a device's persistent store and sync it through the other components.",
        discussion: """
            Opens (or creates) <work>/devices/<device>/SyncDemo-<device>.sqlite in WAL mode. \
            export: fills an empty store with generated posts and attachments, asks the scheduler \
            to run the export activity, uploads batches through the transport and commits them. \
            import: subscribes to the container's push topic, waits for a push (or polls after \
            --push-timeout), asks the scheduler to run the import activity and imports the batches. \
            Prints STORE_ID=, STORE_FILE=, POSTS=, ATTACHMENTS= (and ACTIVITY=) on stdout.
            """)

    @Option(help: "The scenario's work folder.", valueName: "dir")
    var work: String

    @Option(help: "The device's name (letters, digits, '-', '_').", valueName: "name")
    var device: String

    @Option(help: "What this device does: export or import.", valueName: "role")
    var role: Role

    @Option(help: "Posts to generate in an empty store before exporting.", valueName: "n")
    var posts: Int = 20

    @Option(name: "batch-size", help: "Posts per uploaded batch.", valueName: "n")
    var batchSize: Int = 4

    @Option(name: "push-timeout", help: "Seconds an import waits for a push before polling.", valueName: "seconds")
    var pushTimeout: Double = 3

    @Option(help: "A fault to play: slow-import (run over the scheduler's budget).", valueName: "fault")
    var fault: DemoFault?

    func validate() throws {
        if let problem = DeviceName.validate(device) { throw ValidationError(problem) }
        guard (0...100_000).contains(posts) else { throw ValidationError("--posts \(posts) is out of range; give 0…100000") }
        guard (1...1_000).contains(batchSize) else { throw ValidationError("--batch-size \(batchSize) is out of range; give 1…1000") }
        guard pushTimeout >= 0, pushTimeout <= 600 else { throw ValidationError("--push-timeout \(pushTimeout) is out of range; give 0…600 seconds") }
    }

    func run() throws {
        let layout = WorkLayout(path: work)
        try layout.create()
        try FileManager.default.createDirectory(at: layout.deviceFolder(device), withIntermediateDirectories: true)
        let session = try SyncSession(layout: layout, device: device, fault: fault)
        var failure: Error?
        do {
            switch role {
            case .export: try session.export(generating: posts, batchSize: batchSize)
            case .import: try session.importChanges(pushTimeout: pushTimeout)
            }
        } catch {
            failure = error
            session.cloudKit.error("sync of store \(session.store.identifier, privacy: .public) failed: \(String(describing: error), privacy: .public)")
        }
        print("STORE_ID=\(session.store.identifier)")
        print("STORE_FILE=\(session.store.path)")
        print("POSTS=\(session.store.postCount)")
        print("ATTACHMENTS=\(session.store.attachmentCount)")
        // In hex, as diag's default style prints the Activity column: one form to copy
        // between what sync-demo prints and what diag shows (--activity takes both).
        if let activity = session.activityID { print("ACTIVITY=0x\(String(UInt64(bitPattern: activity), radix: 16))") }
        let flushed = ComponentExit.flushLogs(component: "sync-core")
        if let failure { throw failure }
        if !flushed { throw ExitCode.failure }
    }
}

SyncCoreCommand.main()
