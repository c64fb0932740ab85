import DiagClient
import DiagModel

/// A logger whose records name `sender` as the library that logged, the way the sync core's
/// records name `CoreData` and `CloudKit`.
///
/// DiagClient takes the sender from the caller's `#fileID` module; passing a file ID in the
/// sender's name is how a program logs for a layer that is not a module of its own.
public struct SenderLogger: Sendable {
    public let sender: String
    public let logger: Logger

    public init(sender: String, category: String, subsystem: String = SyncDemoNames.subsystem) {
        self.sender = sender
        self.logger = Logger(subsystem: subsystem, category: category)
    }

    private var fileID: String { "\(sender)/\(sender).swift" }

    private static func json(_ metadata: [String: String]) -> Logger.Metadata {
        metadata.mapValues { JSONValue.string($0) }
    }

    public func debug(_ message: LogMessage, metadata: [String: String]? = nil, line: Int = #line) {
        logger.log(level: .debug, message, metadata: metadata.map(Self.json), fileID: fileID, line: line)
    }

    public func info(_ message: LogMessage, metadata: [String: String]? = nil, line: Int = #line) {
        logger.log(level: .info, message, metadata: metadata.map(Self.json), fileID: fileID, line: line)
    }

    public func log(_ message: LogMessage, metadata: [String: String]? = nil, line: Int = #line) {
        logger.log(level: .default, message, metadata: metadata.map(Self.json), fileID: fileID, line: line)
    }

    public func error(_ message: LogMessage, metadata: [String: String]? = nil, line: Int = #line) {
        logger.log(level: .error, message, metadata: metadata.map(Self.json), fileID: fileID, line: line)
    }

    public func fault(_ message: LogMessage, metadata: [String: String]? = nil, line: Int = #line) {
        logger.log(level: .fault, message, metadata: metadata.map(Self.json), fileID: fileID, line: line)
    }
}
