import Foundation

/// A push the notifier leaves in a device's inbox: which store changed, and the activity that
/// changed it (so the device's import continues that activity).
public struct PushNotification: Codable, Sendable, Hashable {
    public var topic: String
    public var store: String
    public var activityID: Int64

    public init(topic: String, store: String, activityID: Int64) {
        self.topic = topic
        self.store = store
        self.activityID = activityID
    }

    public func write(to url: URL) throws {
        try JSONEncoder().encode(self).write(to: url, options: .atomic)
    }

    public static func read(from url: URL) throws -> PushNotification {
        let data = try Data(contentsOf: url)
        do { return try JSONDecoder().decode(PushNotification.self, from: data) } catch {
            throw DemoError("\(url.path) is not a push notification: \(error)")
        }
    }
}
