import DiagClient
import Foundation
import SyncDemoKit

/// Devices subscribed per topic, and delivery as files in each device's push inbox.
final class PushNotifier {
    let logger = Logger(subsystem: "com.example.sync.notifier", category: "push")
    /// `push` per delivery to a device; a push lost shows as a `push lost` event.
    let signposter = Signposter(subsystem: "com.example.sync.notifier", category: "push")
    let layout: WorkLayout
    let losesPushes: Bool
    private var subscribers: [String: [String]] = [:]
    private var delivered = 0

    init(layout: WorkLayout, losesPushes: Bool) {
        self.layout = layout
        self.losesPushes = losesPushes
    }

    func handle(_ request: DemoMessage) throws -> MessageServer.Reply {
        switch request.command {
        case "register": return MessageServer.Reply(try register(request))
        case "push":
            var reply = DemoMessage("error")
            if let identifier = request.activityID {
                try Activity(adopting: identifier, name: "push") { reply = try push(request) }
            } else {
                reply = try push(request)
            }
            return MessageServer.Reply(reply)
        case "shutdown": return MessageServer.Reply(DemoMessage("bye"), stop: true)
        default: throw DemoError("unknown request '\(request.command)'; the notifier accepts register, push, shutdown")
        }
    }

    private func register(_ request: DemoMessage) throws -> DemoMessage {
        let device = try request.require("device")
        let topic = try request.require("topic")
        if let problem = DeviceName.validate(device) { throw DemoError(problem) }
        try FileManager.default.createDirectory(at: layout.pushInbox(device: device), withIntermediateDirectories: true)
        if !subscribers[topic, default: []].contains(device) { subscribers[topic, default: []].append(device) }
        logger.log("Device \(device, privacy: .public) subscribed to topic \(topic, privacy: .public)")
        return DemoMessage("registered")
    }

    private func push(_ request: DemoMessage) throws -> DemoMessage {
        let topic = try request.require("topic")
        let store = try request.require("store")
        let sender = try request.require("fromDevice")
        let targets = subscribers[topic, default: []].filter { $0 != sender }
        logger.info("Received push for topic \(topic, privacy: .public) from device \(sender, privacy: .public) (store \(store, privacy: .public)); \(targets.count, privacy: .public) devices subscribed")
        var count = 0
        for device in targets {
            let delivery = signposter.beginInterval("push", id: signposter.makeSignpostID(), "to device \(device, privacy: .public)")
            var outcome = "lost"
            defer { signposter.endInterval("push", delivery, "\(outcome, privacy: .public)") }
            if losesPushes {
                signposter.emitEvent("push lost", "topic \(topic, privacy: .public) to device \(device, privacy: .public)")
                logger.fault("Dropped push for topic \(topic, privacy: .public) to device \(device, privacy: .public): the connection to the device was reset before delivery")
                continue
            }
            delivered += 1
            let notification = PushNotification(topic: topic, store: store, activityID: request.activityID ?? 0)
            let file = layout.pushInbox(device: device).appendingPathComponent(String(format: "push-%04d.json", delivered))
            try notification.write(to: file)
            count += 1
            outcome = "delivered"
            logger.log("Delivered push for topic \(topic, privacy: .public) to device \(device, privacy: .public)")
        }
        if targets.isEmpty {
            logger.error("No device subscribed to topic \(topic, privacy: .public) besides \(sender, privacy: .public); push not delivered")
        }
        return DemoMessage("pushed", values: ["delivered": String(count)])
    }
}
