import DiagClient
import Foundation
import SyncDemoKit

extension SyncSession {
    /// Waits for a push (or, after `pushTimeout`, polls the transport), then imports every other
    /// store's committed batches in the activity the scheduler runs, under the export's activity.
    func importChanges(pushTimeout: Double) throws {
        let parent = try waitForChanges(pushTimeout: pushTimeout)
        let name = SyncDemoNames.importActivity(store: store.identifier)
        let scheduled = try schedule(name: name, kind: "import", parent: parent)
        activityID = scheduled.activity
        let started = Date()
        var result = "ok"
        defer { complete(name: name, kind: "import", activity: scheduled.activity, started: started, result: result) }
        do {
            try Activity(adopting: scheduled.activity, name: "import") {
                try signposter.withIntervalSignpost("import store", id: signposter.makeSignpostID(),
                                                    "store \(store.identifier, privacy: .public)") {
                    try downloadAndSave(budgetMilliseconds: scheduled.budgetMilliseconds)
                }
                let elapsed = Int(Date().timeIntervalSince(started) * 1000)
                if elapsed > scheduled.budgetMilliseconds {
                    cloudKit.error("Import into store \(store.identifier, privacy: .public) took \(elapsed, privacy: .public) ms, over the scheduler's budget of \(scheduled.budgetMilliseconds, privacy: .public) ms", metadata: storeMetadata)
                }
            }
        } catch {
            result = "failed"
            throw error
        }
    }

    /// The export activity that announced changes: from the push, else from the transport's status.
    private func waitForChanges(pushTimeout: Double) throws -> Int64? {
        let inbox = layout.pushInbox(device: device)
        let deadline = Date(timeIntervalSinceNow: pushTimeout)
        while Date() < deadline {
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: inbox.path)) ?? [])
                .filter { $0.hasPrefix("push-") && $0.hasSuffix(".json") }.sorted()
            if let first = files.first {
                let push = try PushNotification.read(from: inbox.appendingPathComponent(first))
                try? FileManager.default.removeItem(at: inbox.appendingPathComponent(first))
                Activity(adopting: push.activityID, name: "push") {
                    cloudKit.log("Received push on \(push.topic, privacy: .public): store \(push.store, privacy: .public) changed; scheduling an import into store \(store.identifier, privacy: .public)", metadata: storeMetadata)
                }
                return push.activityID
            }
            usleep(50_000)
        }
        cloudKit.error("No push on \(SyncDemoNames.topic, privacy: .public) within \(pushTimeout, privacy: .public) s; fetching changes for store \(store.identifier, privacy: .public) by polling container \(SyncDemoNames.container, privacy: .public)", metadata: storeMetadata)
        for _ in 0..<600 {
            let reply = try MessageClient.send(DemoMessage("status"), to: layout.socket(.transport))
            let commits = (reply.values["commits"] ?? "").split(separator: ",").compactMap { entry -> (String, Int64)? in
                let parts = entry.split(separator: "=")
                guard parts.count == 2, let activity = Int64(parts[1]) else { return nil }
                return (String(parts[0]), activity)
            }
            if let other = commits.first(where: { $0.0 != store.identifier }) {
                cloudKit.log("Polling found a committed export of store \(other.0, privacy: .public)", metadata: storeMetadata)
                return other.1
            }
            usleep(100_000)
        }
        throw DemoError("no export was committed to \(SyncDemoNames.container) within 60 s of polling")
    }

    private func downloadAndSave(budgetMilliseconds: Int) throws {
        let inbox = layout.deviceFolder(device).appendingPathComponent("inbox", isDirectory: true)
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        let request = DemoMessage("download", activityID: Activity.current?.identifier, values: [
            "store": store.identifier, "destination": inbox.path,
        ])
        let reply = try MessageClient.send(request, to: layout.socket(.transport))
        let files = (reply.values["files"] ?? "").split(separator: "\n").map(String.init)
        cloudKit.log("Beginning import of \(files.count, privacy: .public) batches into store \(store.identifier, privacy: .public) from container \(SyncDemoNames.container, privacy: .public)", metadata: storeMetadata)
        // The slow-import fault: the batches together take the whole budget and half a second more.
        let delay = fault == .slowImport && !files.isEmpty ? (budgetMilliseconds + 500) / files.count : 0
        var imported = 0, skipped = 0
        for file in files {
            let interval = signposter.beginInterval("import", id: signposter.makeSignpostID(), "file \(URL(fileURLWithPath: file).lastPathComponent, privacy: .public)")
            var batch = try RecordBatch.read(from: URL(fileURLWithPath: file))
            defer { signposter.endInterval("import", interval, "batch \(batch.index, privacy: .public)") }
            skipped += dropDamagedAttachments(&batch)
            if delay > 0 {
                cloudKit.info("Import batch \(batch.index, privacy: .public) waiting \(delay, privacy: .public) ms for the persistent store coordinator")
                usleep(UInt32(delay) * 1000)
            }
            let added = try store.save(batch.posts, exported: true)
            imported += added
            coreData.info("Saved import batch \(batch.index, privacy: .public): \(added, privacy: .public) new posts in store \(store.identifier, privacy: .public)")
            try? FileManager.default.removeItem(atPath: file)
        }
        cloudKit.log("Finished import into store \(store.identifier, privacy: .public): \(imported, privacy: .public) posts, \(skipped, privacy: .public) attachments refused", metadata: storeMetadata)
    }

    /// Refuses attachments whose bytes do not match their checksum: the post is kept without them.
    private func dropDamagedAttachments(_ batch: inout RecordBatch) -> Int {
        var dropped = 0
        for index in batch.posts.indices {
            let damaged = batch.posts[index].attachments.filter { !$0.isIntact }
            for attachment in damaged {
                coreData.fault("Attachment \(attachment.recordName, privacy: .public) of post \(batch.posts[index].recordName, privacy: .public) failed validation: checksum \(Checksum.hex(attachment.data), privacy: .public), expected \(attachment.checksum, privacy: .public); not saved to store \(store.identifier, privacy: .public)", metadata: storeMetadata)
            }
            dropped += damaged.count
            batch.posts[index].attachments.removeAll { !$0.isIntact }
        }
        return dropped
    }
}
