import DiagModel
import DiagProtocol
import Foundation
import Glibc
import Synchronization

/// Carries records to diagd over its Unix socket, off the caller's thread.
///
/// `send` never blocks: it appends the encoded line to a bounded buffer and returns; when the
/// buffer is full the record is dropped and counted, and a `lossEvent` record tells the store
/// how many were lost. A background thread writes the buffer, reconnecting (with back-off) when
/// the daemon restarts. `flush` waits until the daemon says everything sent before it is committed.
public final class LogTransport: Sendable {
    public static let shared = LogTransport()

    public let socketPath: String
    public let bufferLimit: Int
    public let minimumLevel: MessageType
    /// What the callers, the sender thread and the reply reader share.
    let shared = Mutex(TransportShared())

    /// - Parameters:
    ///   - socketPath: diagd's socket; by default `$DIAG_SOCKET`, `$XDG_RUNTIME_DIR/diag/diagd.sock`,
    ///     or the default store's `diagd.sock`.
    ///   - bufferLimit: bytes of encoded records held while the daemon is slow or away.
    ///   - minimumLevel: records below it are not built at all (`$DIAG_LOG_LEVEL`, else debug).
    public init(socketPath: String? = nil, bufferLimit: Int = 4 << 20, minimumLevel: MessageType? = nil) {
        let environment = ProcessInfo.processInfo.environment
        self.socketPath = socketPath ?? DefaultSocket.path(environment: environment)
        self.bufferLimit = bufferLimit
        self.minimumLevel = minimumLevel ?? environment["DIAG_LOG_LEVEL"].flatMap { MessageType(name: $0) } ?? .debug
    }

    public func isEnabled(_ level: MessageType) -> Bool {
        level.severity >= minimumLevel.severity
    }

    /// Queues a record without waiting; drops (and counts) it when the buffer is full.
    public func send(_ record: LogRecord) {
        enqueue(RecordEncoder.line(record))
    }

    /// Waits until every record sent before this call is committed by the daemon.
    ///
    /// Throws when the daemon cannot be reached within `timeout` seconds, or when the connection
    /// broke after records were written to it (the daemon may not have committed them).
    public func flush(timeout: Double = 10) throws(DiagClientError) {
        let (id, startSender) = shared.withLock { shared in
            shared.state.nextSyncID += 1
            shared.state.requestedSync = shared.state.nextSyncID
            shared.sender.wakeAll()
            return (shared.state.nextSyncID, shared.claimSenderStart())
        }
        if startSender { self.startSender() }
        let outcome = shared.wait(on: \.flushes, until: .now() + max(0, timeout)) { shared -> FlushOutcome? in
            if shared.state.acknowledgedSync >= id { return .acknowledged }
            if shared.state.failedThrough >= id { return .broke(shared.state.lastConnectionError) }
            return nil
        }
        switch outcome {
        case .acknowledged:
            return
        case .broke(let reason):
            throw DiagClientError("the connection to diagd at \(socketPath) broke before it acknowledged the records; some may be lost (\(reason ?? "connection closed"))")
        case nil:
            let reason = shared.withLock { $0.state.lastConnectionError }.map { ": \($0)" } ?? ""
            throw DiagClientError("diagd at \(socketPath) did not acknowledge the records within \(timeout) s\(reason)")
        }
    }

    /// What the transport has done so far.
    public var statistics: TransportStatistics {
        shared.withLock { shared in
            TransportStatistics(
                dropped: shared.state.droppedTotal, errorReplies: shared.state.errorReplies,
                lastErrorReply: shared.state.lastErrorReply, connections: shared.state.connections)
        }
    }

    private func enqueue(_ line: [UInt8]) {
        let limit = bufferLimit
        let startSender = shared.withLock { shared in
            if shared.buffer.count + line.count > limit {
                shared.droppedSinceReport += 1
                shared.state.droppedTotal += 1
                return false
            }
            shared.buffer.append(contentsOf: line)
            shared.sender.wakeAll()
            return shared.claimSenderStart()
        }
        if startSender { self.startSender() }
    }

    private func startSender() {
        let thread = Thread { [self] in
            ThreadName.setCurrent("diag-log-sender")
            TransportSender(transport: self).run()
        }
        thread.start()
    }
}

/// What a `LogTransport`'s callers, its sender thread and its reply reader share, in its `Mutex`.
struct TransportShared {
    /// Encoded records waiting for the sender.
    var buffer: [UInt8] = []
    var droppedSinceReport = 0
    var state = TransportState()
    var senderStarted = false
    /// The sender thread, parked while it has nothing to write.
    var sender = ParkedThreads()
    /// `flush` calls waiting for their acknowledgement.
    var flushes = ParkedThreads()

    /// True once, for the caller that starts the sender thread.
    mutating func claimSenderStart() -> Bool {
        defer { senderStarted = true }
        return !senderStarted
    }

    /// A sync is wanted and not yet written to the live connection.
    var syncPending: Bool {
        state.requestedSync > state.acknowledgedSync
            && (state.requestedSync > state.syncWrittenOnConnection || state.connectionBroken)
            && state.failedThrough < state.requestedSync
    }
}

private enum FlushOutcome: Sendable {
    case acknowledged
    case broke(String?)
}

/// What the transport keeps about its connection and acknowledgements.
struct TransportState {
    var nextSyncID: Int64 = 0
    /// The newest `flush` waiting: the sender writes `{"sync": requestedSync}` after the records.
    var requestedSync: Int64 = 0
    var acknowledgedSync: Int64 = 0
    /// The connection now written to, and what was written to it since its last sync.
    var generation = 0
    var syncWrittenOnConnection: Int64 = 0
    var recordsAfterLastSync = false
    var connectionBroken = true
    /// Every sync up to this ID was written to a connection that broke before answering it.
    var failedThrough: Int64 = 0
    var droppedTotal = 0
    var errorReplies = 0
    var lastErrorReply: String?
    var lastConnectionError: String?
    var connections = 0
}

public struct TransportStatistics: Sendable, Hashable {
    /// Records dropped because the buffer was full.
    public var dropped: Int
    /// `{"error": …}` replies the daemon sent (refused lines).
    public var errorReplies: Int
    public var lastErrorReply: String?
    /// Connections made so far (more than one after a daemon restart).
    public var connections: Int
}

public struct DiagClientError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The default socket path, as diagd resolves it (DiagProtocol's `DefaultPaths`).
public enum DefaultSocket {
    public static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        DefaultPaths.socket(environment: environment)
    }
}
