import DiagModel

/// What a component logs through, like `os.Logger` and swift-log's `Logger`: a small value
/// naming a subsystem and a category. Sending never blocks; see `LogTransport`.
///
/// ```swift
/// let logger = Logger(subsystem: "com.example.sync", category: "export")
/// logger.info("exported \(count, privacy: .public) items to \(path)")   // path is <private>
/// ```
public struct Logger: Sendable {
    public typealias Metadata = [String: JSONValue]

    public let subsystem: String
    public let category: String
    public let transport: LogTransport

    public init(subsystem: String, category: String, transport: LogTransport = .shared) {
        self.subsystem = subsystem
        self.category = category
        self.transport = transport
    }

    public func debug(_ message: @autoclosure () -> LogMessage, metadata: @autoclosure () -> Metadata? = nil, fileID: String = #fileID, line: Int = #line, dsoHandle: UnsafeRawPointer = #dsohandle) {
        log(level: .debug, message(), metadata: metadata(), fileID: fileID, line: line, dsoHandle: dsoHandle)
    }

    public func info(_ message: @autoclosure () -> LogMessage, metadata: @autoclosure () -> Metadata? = nil, fileID: String = #fileID, line: Int = #line, dsoHandle: UnsafeRawPointer = #dsohandle) {
        log(level: .info, message(), metadata: metadata(), fileID: fileID, line: line, dsoHandle: dsoHandle)
    }

    /// A Default-level record.
    public func notice(_ message: @autoclosure () -> LogMessage, metadata: @autoclosure () -> Metadata? = nil, fileID: String = #fileID, line: Int = #line, dsoHandle: UnsafeRawPointer = #dsohandle) {
        log(level: .default, message(), metadata: metadata(), fileID: fileID, line: line, dsoHandle: dsoHandle)
    }

    /// A Default-level record (the same as `notice`).
    public func log(_ message: @autoclosure () -> LogMessage, metadata: @autoclosure () -> Metadata? = nil, fileID: String = #fileID, line: Int = #line, dsoHandle: UnsafeRawPointer = #dsohandle) {
        log(level: .default, message(), metadata: metadata(), fileID: fileID, line: line, dsoHandle: dsoHandle)
    }

    public func error(_ message: @autoclosure () -> LogMessage, metadata: @autoclosure () -> Metadata? = nil, fileID: String = #fileID, line: Int = #line, dsoHandle: UnsafeRawPointer = #dsohandle) {
        log(level: .error, message(), metadata: metadata(), fileID: fileID, line: line, dsoHandle: dsoHandle)
    }

    public func fault(_ message: @autoclosure () -> LogMessage, metadata: @autoclosure () -> Metadata? = nil, fileID: String = #fileID, line: Int = #line, dsoHandle: UnsafeRawPointer = #dsohandle) {
        log(level: .fault, message(), metadata: metadata(), fileID: fileID, line: line, dsoHandle: dsoHandle)
    }

    /// Logs at `level`; the message and metadata are built only when the level is wanted.
    public func log(
        level: MessageType, _ message: @autoclosure () -> LogMessage, metadata: @autoclosure () -> Metadata? = nil,
        fileID: String = #fileID, line: Int = #line, dsoHandle: UnsafeRawPointer = #dsohandle
    ) {
        guard transport.isEnabled(level) else { return }
        let built = message()
        let activity = Activity.current
        let module = Self.module(of: fileID)
        var record = LogRecord(
            timestamp: Clock.now(), messageType: level, sender: module, subsystem: subsystem,
            category: category, threadID: CurrentThread.id, activityIdentifier: activity?.identifier,
            parentActivityIdentifier: activity?.parentIdentifier, eventMessage: built.message,
            formatString: built.formatString, metadata: metadata())
        record.senderImagePath = SenderImage.path(module: module, dsoHandle: dsoHandle)
        transport.send(record)
    }

    /// `Module/File.swift` → `Module`: the library or program that logged.
    static func module(of fileID: String) -> String {
        guard let slash = fileID.firstIndex(of: "/") else { return fileID }
        return String(fileID[..<slash])
    }
}
