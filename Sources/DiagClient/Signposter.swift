import DiagModel

/// Marks intervals and events to measure, modelled on `OSSignposter`: each is a record with
/// `eventType` `signpostEvent` and the fields `signpostID`, `signpostName`, `signpostType`
/// (`begin`, `end`, `event`) and `signpostScope`, as Apple's `log show --style ndjson` names
/// them. `diag signposts` pairs the begins and ends into intervals and their statistics.
///
/// ```swift
/// let signposter = Signposter(subsystem: "com.example.sync", category: "export")
/// let state = signposter.beginInterval("export", id: signposter.makeSignpostID(), "batch \(n, privacy: .public)")
/// …
/// signposter.endInterval("export", state, "\(count, privacy: .public) records")
/// ```
public struct Signposter: Sendable {
    public let subsystem: String
    public let category: String
    public let scope: SignpostScope
    public let transport: LogTransport

    public init(subsystem: String, category: String, scope: SignpostScope = .process, transport: LogTransport = .shared) {
        self.subsystem = subsystem
        self.category = category
        self.scope = scope
        self.transport = transport
    }

    /// Signposts are Default-level records: sent unless the transport's minimum level is above.
    public var isEnabled: Bool { transport.isEnabled(.default) }

    /// A new ID, unique in this process, for intervals of one name that may overlap.
    public func makeSignpostID() -> SignpostID { .generated() }

    /// The ID an object stands for while it lives.
    public func makeSignpostID(from object: AnyObject) -> SignpostID { SignpostID(object: object) }

    /// An ID made from a value that identifies the work, the same in every process.
    public func makeSignpostID(from value: some Hashable & CustomStringConvertible) -> SignpostID { SignpostID(value: value) }

    /// Begins an interval; pass the state to `endInterval`.
    public func beginInterval(
        _ name: StaticString, id: SignpostID = .exclusive, _ message: @autoclosure () -> LogMessage = "",
        fileID: String = #fileID
    ) -> SignpostIntervalState {
        send(.begin, name, id, message, fileID: fileID)
        return SignpostIntervalState(name: name.description, id: id, scope: scope)
    }

    /// Ends the interval `state` began. The name should be the begin's (as with OSSignposter): a
    /// different name begins nothing and ends nothing, and both show as unmatched.
    public func endInterval(
        _ name: StaticString, _ state: SignpostIntervalState, _ message: @autoclosure () -> LogMessage = "",
        fileID: String = #fileID
    ) {
        send(.end, name, state.id, message, fileID: fileID)
    }

    /// A point in time worth marking (a push received, a retry).
    public func emitEvent(
        _ name: StaticString, id: SignpostID = .exclusive, _ message: @autoclosure () -> LogMessage = "",
        fileID: String = #fileID
    ) {
        send(.event, name, id, message, fileID: fileID)
    }

    /// Runs `body` inside an interval, ended however `body` returns or throws.
    public func withIntervalSignpost<T>(
        _ name: StaticString, id: SignpostID = .exclusive, _ message: @autoclosure () -> LogMessage = "",
        fileID: String = #fileID, around body: () throws -> T
    ) rethrows -> T {
        let state = beginInterval(name, id: id, message(), fileID: fileID)
        defer { endInterval(name, state, fileID: fileID) }
        return try body()
    }

    /// The asynchronous form of `withIntervalSignpost`.
    public func withIntervalSignpost<T>(
        _ name: StaticString, id: SignpostID = .exclusive, _ message: @autoclosure () -> LogMessage = "",
        fileID: String = #fileID, around body: () async throws -> T
    ) async rethrows -> T {
        let state = beginInterval(name, id: id, message(), fileID: fileID)
        defer { endInterval(name, state, fileID: fileID) }
        return try await body()
    }

    enum Kind: String { case begin, end, event }

    private func send(_ kind: Kind, _ name: StaticString, _ id: SignpostID, _ message: () -> LogMessage, fileID: String) {
        guard id.isValid, isEnabled else { return }
        let built = message()
        let activity = Activity.current
        transport.send(LogRecord(
            timestamp: Clock.now(), messageType: .default, eventType: .signpostEvent,
            sender: Logger.module(of: fileID), subsystem: subsystem, category: category,
            threadID: CurrentThread.id, activityIdentifier: activity?.identifier,
            parentActivityIdentifier: activity?.parentIdentifier, eventMessage: built.message,
            formatString: built.formatString, signpostID: id.stored, signpostName: name.description,
            signpostType: kind.rawValue, signpostScope: scope.rawValue))
    }
}

/// What `beginInterval` returns and `endInterval` takes (Apple's `OSSignpostIntervalState`).
public struct SignpostIntervalState: Sendable, Hashable {
    public let name: String
    public let id: SignpostID
    public let scope: SignpostScope

    /// The state of an interval begun elsewhere (another request, a callback), rebuilt from its
    /// ID, as Apple's `beginState(id:)`: the end pairs with the begin by ID, not by this value.
    public init(name: String, id: SignpostID, scope: SignpostScope = .process) {
        self.name = name
        self.id = id
        self.scope = scope
    }
}
