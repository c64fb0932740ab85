import DiagClient
import Foundation
import SyncDemoKit

/// One device's sync core: its store, its two logging layers, and how it reaches the others.
final class SyncSession {
    let layout: WorkLayout
    let device: String
    let fault: DemoFault?
    let store: PersistentStore
    /// The persistence layer's records.
    let coreData = SenderLogger(sender: "CoreData", category: "store")
    /// The sync layer's records.
    let cloudKit = SenderLogger(sender: "CloudKit", category: "sync")
    /// What a sync engineer measures: `export` and `import` per batch, `export store` and
    /// `import store` for the whole of a store's (`diag signposts` pairs them).
    let signposter = Signposter(subsystem: SyncDemoNames.subsystem, category: "sync")
    /// The activity the scheduler ran this device's export or import in.
    var activityID: Int64?

    init(layout: WorkLayout, device: String, fault: DemoFault?) throws {
        self.layout = layout
        self.device = device
        self.fault = fault
        let path = layout.storeFile(device: device)
        store = try PersistentStore(path: path)
        coreData.log("Loaded persistent store \(path, privacy: .public) (identifier \(store.identifier, privacy: .public), \(store.postCount, privacy: .public) posts) for container \(store.container, privacy: .public)", metadata: storeMetadata)
        let register = DemoMessage("register", values: ["device": device, "topic": SyncDemoNames.topic])
        _ = try MessageClient.send(register, to: layout.socket(.notifier))
        cloudKit.info("Registered device \(device, privacy: .public) for pushes on \(SyncDemoNames.topic, privacy: .public)")
    }

    /// Lets a predicate pick this store's records: `metadata.storeIdentifier == $STORE_ID`.
    var storeMetadata: [String: String] { ["storeIdentifier": store.identifier, "device": device] }

    /// Asks the scheduler to run `name` until it says run; returns the activity ID and budget.
    func schedule(name: String, kind: String, parent: Int64?) throws -> (activity: Int64, budgetMilliseconds: Int) {
        for attempt in 1...50 {
            let request = DemoMessage("submit", activityID: parent, values: ["name": name, "kind": kind, "store": store.identifier])
            let reply = try MessageClient.send(request, to: layout.socket(.scheduler))
            if reply.command == "run", let activity = reply.activityID {
                return (activity, Int(reply.values["budgetMs"] ?? "") ?? 0)
            }
            let wait = Int(reply.values["retryAfterMs"] ?? "") ?? 100
            cloudKit.info("Activity \(name, privacy: .public) deferred by the scheduler (attempt \(attempt, privacy: .public)); retrying in \(wait, privacy: .public) ms")
            usleep(UInt32(wait) * 1000)
        }
        throw DemoError("the scheduler deferred \(name) 50 times")
    }

    func complete(name: String, kind: String, activity: Int64, started: Date, result: String) {
        let duration = Int(Date().timeIntervalSince(started) * 1000)
        let request = DemoMessage("complete", activityID: activity, values: [
            "name": name, "kind": kind, "durationMs": String(duration), "result": result,
        ])
        do { _ = try MessageClient.send(request, to: layout.socket(.scheduler)) } catch {
            cloudKit.error("Could not report \(name, privacy: .public) to the scheduler: \(String(describing: error), privacy: .public)")
        }
    }
}
