import Foundation

/// The identifiers the four components agree on, as the WWDC22 demo's app, `dasd`, `cloudd` and
/// `apsd` agree on a container, a push topic and activity names.
public enum SyncDemoNames {
    /// The CloudKit-like container the transport serves.
    public static let container = "iCloud.com.example.SyncDemo"
    /// The push topic the notifier delivers on: the container's topic, as `apsd` names it.
    public static let topic = "com.example.icloud-container.iCloud.com.example.SyncDemo"
    /// The subsystem every component logs under.
    public static let subsystem = "com.example.sync"
    /// Activity names the scheduler decides about, followed by the store's UUID.
    public static let activityPrefix = "com.example.sync.activity"

    public static func exportActivity(store: String) -> String { "\(activityPrefix).export.\(store)" }
    public static func importActivity(store: String) -> String { "\(activityPrefix).import.\(store)" }
}

/// The faults a scenario can switch on, so a repro has something to find.
public enum DemoFault: String, CaseIterable, Sendable {
    /// The transport throttles uploads: requests get a "retry after" and the sync core retries.
    case throttle
    /// The notifier loses the push: the second device falls back to polling after a timeout.
    case pushLost = "push-lost"
    /// The transport hands out one attachment's bytes damaged: the import's checksum refuses it.
    case corruptAttachment = "corrupt-attachment"
    /// The import runs over the scheduler's time budget.
    case slowImport = "slow-import"
}

/// The folders of one scenario under `--work DIR`.
public struct WorkLayout: Sendable {
    public let root: URL

    public init(root: URL) { self.root = root.standardizedFileURL }
    public init(path: String) { self.init(root: URL(fileURLWithPath: path, isDirectory: true)) }

    public var socketsFolder: URL { root.appendingPathComponent("sockets", isDirectory: true) }
    public func socket(_ component: DemoComponent) -> String {
        socketsFolder.appendingPathComponent("\(component.rawValue).sock").path
    }

    /// The transport's "server": record batches uploaded to the container, as CloudKit keeps them.
    public var serverFolder: URL {
        root.appendingPathComponent("server", isDirectory: true).appendingPathComponent(SyncDemoNames.container, isDirectory: true)
    }

    /// One device's folder: its persistent store, outbox and inbox.
    public func deviceFolder(_ device: String) -> URL {
        root.appendingPathComponent("devices", isDirectory: true).appendingPathComponent(device, isDirectory: true)
    }

    /// `devices/<D>/SyncDemo-<D>.sqlite`: named after the device so a bundle keeps both apart.
    public func storeFile(device: String) -> String {
        deviceFolder(device).appendingPathComponent("SyncDemo-\(device).sqlite").path
    }

    /// Where the notifier drops pushes for a device.
    public func pushInbox(device: String) -> URL {
        root.appendingPathComponent("push", isDirectory: true).appendingPathComponent(device, isDirectory: true)
    }

    /// `path` if it lies inside the devices' folders (after resolving `..` and symbolic links);
    /// the services read and write device files only there.
    public func deviceFile(_ path: String) throws -> URL {
        let devices = root.appendingPathComponent("devices", isDirectory: true).resolvingSymlinksInPath().path + "/"
        let resolved = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
        guard resolved.path.hasPrefix(devices) else {
            throw DemoError("'\(path)' is outside the devices' folders (\(devices)); refused")
        }
        return resolved
    }

    /// Creates every shared folder.
    public func create() throws {
        for folder in [socketsFolder, serverFolder, root.appendingPathComponent("devices"), root.appendingPathComponent("push")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
    }
}

/// The four components, by process name.
public enum DemoComponent: String, CaseIterable, Sendable {
    case syncCore = "sync-core"
    case scheduler
    case transport
    case notifier
}

/// Device names are folder names: letters, digits, `-` and `_` only.
public enum DeviceName {
    public static func validate(_ name: String) -> String? {
        guard !name.isEmpty, name.count <= 32 else { return "device name '\(name)' must have 1 to 32 characters" }
        let allowed = name.unicodeScalars.allSatisfy { scalar in
            (scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar))) || scalar == "-" || scalar == "_"
        }
        return allowed ? nil : "device name '\(name)' may hold only ASCII letters, digits, '-' and '_'"
    }
}
