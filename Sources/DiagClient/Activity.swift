import DiagModel
import Glibc

/// An activity ties the records of one operation together, across threads, tasks and processes:
/// every record logged inside `Activity("export") { … }` carries its `activityIdentifier`.
///
/// The identifier is a plain integer: send it to another process (in a request, an environment
/// variable), which runs its part inside `Activity(adopting: id) { … }`.
public struct Activity: Sendable, Hashable {
    public let name: String
    public let identifier: Int64
    public let parentIdentifier: Int64?

    /// The activity of the running task or thread, if any.
    @TaskLocal public static var current: Activity?

    /// Starts an activity, logs its creation (an `activityCreateEvent`), and runs `body` in it.
    @discardableResult
    public init(
        _ name: String, transport: LogTransport = .shared, fileID: String = #fileID, line: Int = #line,
        dsoHandle: UnsafeRawPointer = #dsohandle, _ body: () throws -> Void
    ) rethrows {
        self.init(started: name, transport: transport, fileID: fileID, line: line, dsoHandle: dsoHandle)
        try Activity.$current.withValue(self) { try body() }
    }

    /// Starts an activity and runs an asynchronous `body` in it; child tasks inherit it.
    @discardableResult
    public init(
        _ name: String, transport: LogTransport = .shared, fileID: String = #fileID, line: Int = #line,
        dsoHandle: UnsafeRawPointer = #dsohandle, _ body: () async throws -> Void
    ) async rethrows {
        self.init(started: name, transport: transport, fileID: fileID, line: line, dsoHandle: dsoHandle)
        try await Activity.$current.withValue(self) { try await body() }
    }

    /// Continues, in this process, an activity another process started and sent the identifier of.
    @discardableResult
    public init(adopting identifier: Int64, name: String = "adopted", _ body: () throws -> Void) rethrows {
        self.init(name: name, identifier: identifier, parentIdentifier: nil)
        try Activity.$current.withValue(self) { try body() }
    }

    @discardableResult
    public init(adopting identifier: Int64, name: String = "adopted", _ body: () async throws -> Void) async rethrows {
        self.init(name: name, identifier: identifier, parentIdentifier: nil)
        try await Activity.$current.withValue(self) { try await body() }
    }

    public init(name: String, identifier: Int64, parentIdentifier: Int64?) {
        self.name = name
        self.identifier = identifier
        self.parentIdentifier = parentIdentifier
    }

    private init(started name: String, transport: LogTransport, fileID: String, line: Int, dsoHandle: UnsafeRawPointer) {
        self.init(name: name, identifier: Self.newIdentifier(), parentIdentifier: Activity.current?.identifier)
        var record = LogRecord(
            timestamp: Clock.now(), messageType: .default, eventType: .activityCreateEvent,
            sender: Logger.module(of: fileID), threadID: CurrentThread.id, activityIdentifier: identifier,
            parentActivityIdentifier: parentIdentifier, eventMessage: name, formatString: name)
        record.senderImagePath = SenderImage.path(module: Logger.module(of: fileID), dsoHandle: dsoHandle)
        transport.send(record)
    }

    /// A random positive 63-bit identifier: unique enough across processes without coordination.
    static func newIdentifier() -> Int64 {
        var generator = SystemRandomNumberGenerator()
        return Int64.random(in: 1...Int64.max, using: &generator)
    }
}
