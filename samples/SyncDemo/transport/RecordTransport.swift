import DiagClient
import Foundation
import SyncDemoKit

/// The container's server side: batches under `server/<container>/<store UUID>/`, a `COMMIT`
/// file when an export is complete, and a request-rate limit.
final class RecordTransport {
    let logger = Logger(subsystem: "com.example.sync.transport", category: "records")
    /// `upload` and `download` per request, each with an ID of its own.
    let signposter = Signposter(subsystem: "com.example.sync.transport", category: "records")
    let layout: WorkLayout
    let fault: DemoFault?
    private var rateLimiter: RateLimiter
    private var downloadsCorrupted = 0

    init(layout: WorkLayout, fault: DemoFault?) {
        self.layout = layout
        self.fault = fault
        // Normally generous; with the throttle fault, one upload a second.
        rateLimiter = RateLimiter(interval: fault == .throttle ? 1.0 : 0.001)
    }

    var container: String { SyncDemoNames.container }

    func handle(_ request: DemoMessage) throws -> MessageServer.Reply {
        let reply: DemoMessage
        switch request.command {
        case "upload": reply = try inActivity(request) { try measured("upload", request) { try upload(request) } }
        case "commit": reply = try inActivity(request) { try commit(request) }
        case "download": reply = try inActivity(request) { try measured("download", request) { try download(request) } }
        case "status": reply = try status()
        case "shutdown": return MessageServer.Reply(DemoMessage("bye"), stop: true)
        default: throw DemoError("unknown request '\(request.command)'; the transport accepts upload, commit, status, download, shutdown")
        }
        return MessageServer.Reply(reply)
    }

    private func inActivity(_ request: DemoMessage, _ body: () throws -> DemoMessage) throws -> DemoMessage {
        guard let identifier = request.activityID else { return try body() }
        var reply = DemoMessage("error")
        try Activity(adopting: identifier, name: request.command) { reply = try body() }
        return reply
    }

    /// The request as an interval; the end's message says how it was answered (`uploaded`,
    /// `throttled`, …), so throttled attempts can be told apart from real uploads.
    private func measured(_ name: StaticString, _ request: DemoMessage, _ body: () throws -> DemoMessage) throws -> DemoMessage {
        let state = signposter.beginInterval(name, id: signposter.makeSignpostID(), "\(request.command, privacy: .public) request")
        var answer = "failed"
        defer { signposter.endInterval(name, state, "\(answer, privacy: .public)") }
        let reply = try body()
        answer = reply.command
        return reply
    }

    private func storeFolder(_ store: String) throws -> URL {
        guard UUID(uuidString: store) != nil else { throw DemoError("store '\(store)' is not a UUID") }
        return layout.serverFolder.appendingPathComponent(store, isDirectory: true)
    }

    private func upload(_ request: DemoMessage) throws -> DemoMessage {
        let source = try layout.deviceFile(try request.require("batch"))
        let attempt = try request.requireInt("attempt")
        let batch = try RecordBatch.read(from: source)
        if let wait = rateLimiter.admit() {
            let milliseconds = max(50, Int(wait * 1000))
            logger.error("Request rate limited for container \(container, privacy: .public): batch \(batch.index, privacy: .public) of store \(batch.sourceStore, privacy: .public) throttled on attempt \(attempt, privacy: .public), retry after \(milliseconds, privacy: .public) ms")
            return DemoMessage("throttled", values: ["retryAfterMs": String(milliseconds)])
        }
        let folder = try storeFolder(batch.sourceStore)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let destination = folder.appendingPathComponent(String(format: "batch-%04d.json", batch.index))
        try batch.write(to: destination)
        logger.log("Uploaded batch \(batch.index, privacy: .public) to container \(container, privacy: .public): \(batch.posts.count, privacy: .public) Post and \(batch.attachmentCount, privacy: .public) Attachment records, \(batch.assetBytes, privacy: .public) asset bytes", metadata: ["storeIdentifier": .string(batch.sourceStore)])
        return DemoMessage("uploaded", values: ["path": destination.path])
    }

    private func commit(_ request: DemoMessage) throws -> DemoMessage {
        let store = try request.require("store")
        let device = try request.require("device")
        let batches = try request.requireInt("batches")
        let folder = try storeFolder(store)
        let found = (try? FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("batch-") }.count) ?? 0
        guard found == batches else {
            logger.error("Commit refused for container \(container, privacy: .public): store \(store, privacy: .public) says \(batches, privacy: .public) batches, the server holds \(found, privacy: .public)")
            throw DemoError("commit of \(batches) batches, but the server holds \(found) for store \(store)")
        }
        let marker = CommitMarker(store: store, device: device, batches: batches, activityID: request.activityID ?? 0)
        try marker.write(to: folder.appendingPathComponent("COMMIT"))
        logger.log("Committed export of store \(store, privacy: .public) to container \(container, privacy: .public): \(batches, privacy: .public) batches; requesting a push on \(SyncDemoNames.topic, privacy: .public)")
        let push = DemoMessage("push", activityID: request.activityID, values: ["topic": SyncDemoNames.topic, "store": store, "fromDevice": device])
        let reply = try MessageClient.send(push, to: layout.socket(.notifier))
        return DemoMessage("committed", values: ["delivered": reply.values["delivered"] ?? "0"])
    }

    private func commits() -> [CommitMarker] {
        let stores = (try? FileManager.default.contentsOfDirectory(atPath: layout.serverFolder.path)) ?? []
        return stores.sorted().compactMap { store in
            try? CommitMarker.read(from: layout.serverFolder.appendingPathComponent(store).appendingPathComponent("COMMIT"))
        }
    }

    private func status() throws -> DemoMessage {
        let list = commits().map { "\($0.store)=\($0.activityID)" }.joined(separator: ",")
        return DemoMessage("status", values: ["commits": list])
    }

    private func download(_ request: DemoMessage) throws -> DemoMessage {
        let ownStore = try request.require("store")
        let destination = try layout.deviceFile(try request.require("destination"))
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        var files: [String] = []
        for marker in commits() where marker.store != ownStore {
            let folder = try storeFolder(marker.store)
            for index in 0..<marker.batches {
                let name = String(format: "batch-%04d.json", index + 1)
                var batch = try RecordBatch.read(from: folder.appendingPathComponent(name))
                if fault == .corruptAttachment, downloadsCorrupted == 0, let damaged = Self.damageFirstAsset(&batch) {
                    downloadsCorrupted += 1
                    logger.debug("asset \(damaged, privacy: .public) served from the cache of container \(container, privacy: .public)")
                }
                let target = destination.appendingPathComponent("\(marker.store)-\(name)")
                try batch.write(to: target)
                files.append(target.path)
            }
            logger.log("Downloaded \(marker.batches, privacy: .public) batches of store \(marker.store, privacy: .public) from container \(container, privacy: .public) for store \(ownStore, privacy: .public)")
        }
        return DemoMessage("downloaded", values: ["files": files.joined(separator: "\n")])
    }

    /// The corrupt-attachment fault: flips bytes in the middle of the first asset, as a bad
    /// cache would, and returns its record name.
    static func damageFirstAsset(_ batch: inout RecordBatch) -> String? {
        guard let post = batch.posts.firstIndex(where: { !$0.attachments.isEmpty }) else { return nil }
        var data = batch.posts[post].attachments[0].data
        let middle = data.count / 2
        for offset in middle..<min(data.count, middle + 16) { data[offset] ^= 0xFF }
        batch.posts[post].attachments[0].data = data
        return batch.posts[post].attachments[0].recordName
    }
}

/// What `COMMIT` says: the export is complete.
struct CommitMarker: Codable {
    var store: String
    var device: String
    var batches: Int
    var activityID: Int64

    func write(to url: URL) throws {
        try JSONEncoder().encode(self).write(to: url, options: .atomic)
    }

    static func read(from url: URL) throws -> CommitMarker {
        try JSONDecoder().decode(CommitMarker.self, from: Data(contentsOf: url))
    }
}

/// One request per `interval`: answers nil when a request may go now, else how long to wait.
struct RateLimiter {
    let interval: TimeInterval
    private var nextAllowed = Date.distantPast

    init(interval: TimeInterval) { self.interval = interval }

    mutating func admit(now: Date = Date()) -> TimeInterval? {
        if now < nextAllowed { return nextAllowed.timeIntervalSince(now) }
        nextAllowed = now.addingTimeInterval(interval)
        return nil
    }
}
