import DiagClient
import DiagCommandLine
import Foundation
import SyncDemoKit

/// `sync-demo run`: spawns the scheduler, transport and notifier, an importing device and an
/// exporting device, waits for them, stops the services, and prints what a collect needs.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run an export on device A and an import on an empty device B, with an optional fault.",
        discussion: """
            The components log to diagd ($DIAG_SOCKET). Each run starts from an empty scenario: \
            the sockets/, server/, push/ and devices/ folders under --work are recreated. \
            Prints KEY=value lines on stdout: STORE_ID and STORE_FILE (device A), IMPORT_STORE_ID \
            and IMPORT_STORE_FILE (device B), CONTAINER, TOPIC, EXPORT_ACTIVITY, IMPORT_ACTIVITY, \
            FAULT, and the posts and attachments each store holds.
            """)

    @Option(help: "The scenario's work folder (created if missing).", valueName: "dir")
    var work: String

    @Option(help: "Posts the exporting device generates.", valueName: "n")
    var posts: Int = 20

    @Option(help: "A fault to switch on: throttle, push-lost, corrupt-attachment or slow-import.", valueName: "fault")
    var fault: DemoFault?

    @Option(help: "The folder holding the component executables (default: this program's folder).", valueName: "dir")
    var bin: String?

    func validate() throws {
        guard (1...100_000).contains(posts) else { throw ValidationError("--posts \(posts) is out of range; give 1…100000") }
        guard !work.isEmpty else { throw ValidationError("--work must name a folder") }
    }

    func run() throws {
        let daemon = DefaultSocket.path()
        guard MessageClient.canConnect(to: daemon) else {
            throw RuntimeError("no diagd accepts connections at \(daemon); start diagd first, or set DIAG_SOCKET to its socket")
        }
        let layout = WorkLayout(path: work)
        try ScenarioFolders.reset(layout)
        let launcher = ComponentLauncher(binFolder: bin.map { URL(fileURLWithPath: $0) } ?? ComponentLauncher.ownFolder(), layout: layout)
        let faultArguments = fault.map { ["--fault", $0.rawValue] } ?? []
        var services: [ComponentLauncher.Child] = []
        var outcome: Result<ScenarioReport, Error>
        do {
            // Only the components that play a fault take --fault.
            for component in [DemoComponent.scheduler, .transport, .notifier] {
                let arguments = component == .scheduler ? [] : faultArguments
                let child = try launcher.start(component, arguments)
                services.append(child)
                try launcher.waitForPath(layout.socket(component), of: child)
            }
            outcome = .success(try playDevices(launcher: launcher, layout: layout, faultArguments: faultArguments))
        } catch {
            outcome = .failure(error)
        }
        let stopped = launcher.stop(services)
        let report = try outcome.get()
        guard stopped.isEmpty else { throw RuntimeError(stopped.joined(separator: "; ")) }
        print(report.lines(fault: fault), terminator: "")
    }

    private func playDevices(launcher: ComponentLauncher, layout: WorkLayout, faultArguments: [String]) throws -> ScenarioReport {
        let importer = try launcher.start(.syncCore, [
            "--device", "B", "--role", "import", "--push-timeout", fault == .pushLost ? "1" : "30",
        ] + faultArguments, capture: true)
        try launcher.waitForPath(layout.pushInbox(device: "B").path, of: importer)
        let exporter = try launcher.start(.syncCore, [
            "--device", "A", "--role", "export", "--posts", String(posts),
        ] + faultArguments, capture: true)
        let exported: [String: String]
        do { exported = try launcher.finish(exporter) } catch {
            // Without an export the import would wait for nothing.
            importer.process.terminate()
            _ = try? launcher.finish(importer)
            throw error
        }
        let imported = try launcher.finish(importer)
        return ScenarioReport(exporter: exported, importer: imported)
    }
}

/// The `KEY=value` lines the devices printed, merged into the run's summary.
struct ScenarioReport {
    var exporter: [String: String]
    var importer: [String: String]

    func lines(fault: DemoFault?) -> String {
        let pairs: [(String, String?)] = [
            ("STORE_ID", exporter["STORE_ID"]), ("STORE_FILE", exporter["STORE_FILE"]),
            ("IMPORT_STORE_ID", importer["STORE_ID"]), ("IMPORT_STORE_FILE", importer["STORE_FILE"]),
            ("CONTAINER", SyncDemoNames.container), ("TOPIC", SyncDemoNames.topic),
            ("EXPORT_ACTIVITY", exporter["ACTIVITY"]), ("IMPORT_ACTIVITY", importer["ACTIVITY"]),
            ("EXPORT_POSTS", exporter["POSTS"]), ("EXPORT_ATTACHMENTS", exporter["ATTACHMENTS"]),
            ("IMPORT_POSTS", importer["POSTS"]), ("IMPORT_ATTACHMENTS", importer["ATTACHMENTS"]),
            ("FAULT", fault?.rawValue ?? "none"),
        ]
        return pairs.map { "\($0.0)=\($0.1 ?? "")\n" }.joined()
    }
}

/// The scenario's shared folders, emptied before each run so runs do not mix.
enum ScenarioFolders {
    static func reset(_ layout: WorkLayout) throws {
        for name in ["sockets", "server", "push", "devices"] {
            let folder = layout.root.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: folder.path) { try FileManager.default.removeItem(at: folder) }
        }
        try layout.create()
    }
}
