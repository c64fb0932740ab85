import DiagModel

/// One of the four processes of the sync system, as it appears in its records.
struct SyncComponent {
    var process: String
    var processID: Int64
    var imagePath: String
    var subsystem: String
    var threads: [Int64]

    /// The sync core (the app with its Core Data-like store), the scheduler (like dasd), the
    /// transport (like cloudd) and the notifier (like apsd), with pids and threads from the seed.
    static func all(random: inout SplitMix64) -> (core: SyncComponent, scheduler: SyncComponent, transport: SyncComponent, notifier: SyncComponent) {
        func make(_ process: String, _ path: String, _ subsystem: String) -> SyncComponent {
            let pid = Int64(random.between(300, 32000))
            let threads = (0..<4).map { _ in Int64(random.between(100_000, 9_000_000)) }
            return SyncComponent(process: process, processID: pid, imagePath: path, subsystem: subsystem, threads: threads)
        }
        return (
            make("sync-core", "/usr/libexec/sync-core", "com.example.sync"),
            make("scheduler", "/usr/libexec/scheduler", "com.example.sync.scheduler"),
            make("transport", "/usr/libexec/transport", "com.example.sync.transport"),
            make("notifier", "/usr/libexec/notifier", "com.example.sync.notifier")
        )
    }
}

/// A library that logs inside a process: `sender` and `senderImagePath` of its records.
struct SyncSender {
    var name: String
    var imagePath: String

    static let coreData = SyncSender(name: "CoreData", imagePath: "/usr/lib/sync/CoreData.so")
    static let cloudKit = SyncSender(name: "CloudKit", imagePath: "/usr/lib/sync/CloudKit.so")

    static func main(of component: SyncComponent) -> SyncSender {
        SyncSender(name: component.process, imagePath: component.imagePath)
    }
}
