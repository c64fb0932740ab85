import Foundation

/// A fresh folder under the system's temporary directory, removed when the value is released.
public final class TemporaryDirectory: Sendable {
    public let url: URL

    public init(_ label: String = "diag-test") throws {
        BrokenPipes.ignoreInThisProcess()
        let name = "\(label)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))"
        url = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public var path: String { url.path }

    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Writes `contents` to `name` inside the folder and returns its path.
    @discardableResult
    public func write(_ name: String, _ contents: String) throws -> String {
        let target = file(name)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: target)
        return target.path
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
