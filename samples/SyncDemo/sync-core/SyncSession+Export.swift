import DiagClient
import Foundation
import SyncDemoKit

extension SyncSession {
    /// Fills an empty store with generated posts, then exports what is not exported yet in the
    /// activity the scheduler runs: batches uploaded through the transport, then a commit.
    func export(generating count: Int, batchSize: Int) throws {
        if store.postCount == 0, count > 0 {
            var generator = DataSetGenerator(seed: UInt64(Checksum.hex(Data(device.utf8)), radix: 16) ?? 2022)
            let posts = generator.posts(count: count, device: device, now: Int64(Date().timeIntervalSince1970))
            try store.save(posts)
            let attachments = posts.reduce(0) { $0 + $1.attachments.count }
            let bytes = posts.reduce(0) { $0 + $1.attachments.reduce(0) { $0 + $1.data.count } }
            coreData.log("Saved \(posts.count, privacy: .public) Post objects with \(attachments, privacy: .public) Attachment and ImageData objects (\(bytes, privacy: .public) bytes) to store \(store.identifier, privacy: .public)", metadata: storeMetadata)
        }
        let name = SyncDemoNames.exportActivity(store: store.identifier)
        let scheduled = try schedule(name: name, kind: "export", parent: nil)
        activityID = scheduled.activity
        let started = Date()
        var result = "ok"
        defer { complete(name: name, kind: "export", activity: scheduled.activity, started: started, result: result) }
        do {
            try Activity(adopting: scheduled.activity, name: "export") {
                try signposter.withIntervalSignpost("export store", id: signposter.makeSignpostID(),
                                                    "store \(store.identifier, privacy: .public)") {
                    try uploadAll(batchSize: batchSize)
                }
            }
        } catch {
            result = "failed"
            throw error
        }
    }

    private func uploadAll(batchSize: Int) throws {
        cloudKit.log("Beginning export of store \(store.identifier, privacy: .public) to container \(SyncDemoNames.container, privacy: .public)", metadata: storeMetadata)
        let outbox = layout.deviceFolder(device).appendingPathComponent("outbox", isDirectory: true)
        try FileManager.default.createDirectory(at: outbox, withIntermediateDirectories: true)
        var index = 0
        var exportedPosts = 0
        while true {
            let posts = try store.unexportedPosts(limit: batchSize)
            if posts.isEmpty { break }
            index += 1
            let interval = signposter.beginInterval("export", id: signposter.makeSignpostID(),
                                                    "batch \(index, privacy: .public) of store \(store.identifier, privacy: .public)")
            defer { signposter.endInterval("export", interval, "batch \(index, privacy: .public)") }
            coreData.debug("Faulted in \(posts.count, privacy: .public) posts and their image data for export batch \(index, privacy: .public)")
            let batch = RecordBatch(sourceStore: store.identifier, index: index, posts: posts)
            let file = outbox.appendingPathComponent(String(format: "batch-%04d.json", index))
            try batch.write(to: file)
            try upload(file: file, batch: batch)
            try store.markExported(posts.map(\.recordName))
            exportedPosts += posts.count
            try? FileManager.default.removeItem(at: file)
        }
        let commit = DemoMessage("commit", activityID: Activity.current?.identifier, values: [
            "store": store.identifier, "device": device, "batches": String(index),
        ])
        let reply = try MessageClient.send(commit, to: layout.socket(.transport))
        cloudKit.log("Finished export of store \(store.identifier, privacy: .public): \(exportedPosts, privacy: .public) posts in \(index, privacy: .public) batches, push delivered to \(reply.values["delivered"] ?? "0", privacy: .public) devices", metadata: storeMetadata)
    }

    /// Uploads one batch, waiting out the transport's throttling as CloudKit clients must.
    private func upload(file: URL, batch: RecordBatch) throws {
        for attempt in 1...40 {
            let request = DemoMessage("upload", activityID: Activity.current?.identifier, values: [
                "batch": file.path, "attempt": String(attempt),
            ])
            let reply = try MessageClient.send(request, to: layout.socket(.transport))
            if reply.command == "uploaded" {
                cloudKit.info("Export batch \(batch.index, privacy: .public) of store \(store.identifier, privacy: .public) uploaded: \(batch.posts.count, privacy: .public) posts, \(batch.attachmentCount, privacy: .public) attachments")
                return
            }
            let wait = Int(reply.values["retryAfterMs"] ?? "") ?? 200
            cloudKit.error("<CKError: \"Request Rate Limited\" (7)> exporting batch \(batch.index, privacy: .public) of store \(store.identifier, privacy: .public); retry after \(wait, privacy: .public) ms (attempt \(attempt, privacy: .public))", metadata: storeMetadata)
            usleep(UInt32(min(wait, 5_000)) * 1000)
        }
        throw DemoError("the transport throttled batch \(batch.index) 40 times")
    }
}
