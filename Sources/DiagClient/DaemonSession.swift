import DiagModel
import DiagProtocol
import Foundation
import Glibc

/// A request-and-reply connection to diagd, for tools rather than components: the memory ring
/// (`diag collect`), level settings (`diag config`) and live streams (`diag stream`).
/// docs/PROTOCOL.md describes each request; DiagProtocol spells them and reads the replies.
public final class DaemonSession {
    private let socket: ClientSocket
    private var lines: ReplyLineReader
    public let socketPath: String

    public init(socketPath: String? = nil) throws(DiagClientError) {
        let path = socketPath ?? DefaultSocket.path()
        self.socketPath = path
        socket = try ClientSocket(path: path)
        lines = ReplyLineReader(descriptor: socket.descriptor)
    }

    /// The records diagd keeps in memory only (Debug by default), oldest first.
    public func ringRecords() throws(DiagClientError) -> [LogRecord] {
        try send(.ring)
        var records: [LogRecord] = []
        while true {
            switch try nextReply() {
            case .record(let record): records.append(record)
            case .end: return records
            case .error(let reason, _, _): throw DiagClientError("diagd refused the ring request: \(reason)")
            default: continue
            }
        }
    }

    /// Changes the mode of a subsystem (or one of its categories, or with neither, of everything)
    /// and returns every setting now in force as `subsystem[:category] mode` lines. A nil `mode`
    /// changes nothing and lists the settings.
    public func configure(subsystem: String?, category: String?, mode: String?) throws(DiagClientError) -> [String] {
        guard let mode else { return try exchangeConfig(.configure(nil)) }
        let parsed: LevelMode
        do { parsed = try LevelMode.parse(mode) } catch { throw DiagClientError(error.description) }
        return try exchangeConfig(.configure(LevelSetting(subsystem: subsystem, category: category, mode: parsed)))
    }

    /// Removes the setting of a category, of a subsystem (with its categories'), or with neither,
    /// every setting, as `log config --reset`; returns the settings now in force, as `configure`.
    public func resetConfiguration(subsystem: String?, category: String?) throws(DiagClientError) -> [String] {
        try exchangeConfig(.resetLevels(LevelReset(subsystem: subsystem, category: category)))
    }

    private func exchangeConfig(_ request: ClientMessage) throws(DiagClientError) -> [String] {
        try send(request)
        switch try nextReply() {
        case .error(let reason, _, _):
            throw DiagClientError(reason)
        case .configured(let settings):
            return settings.map { setting in
                let scope = [setting.subsystem, setting.category].compactMap { $0 }
                return "\(scope.isEmpty ? "(all)" : scope.joined(separator: ":")) \(setting.mode.description)"
            }
        default:
            throw DiagClientError("diagd gave no settings in reply to a config request")
        }
    }

    /// Subscribes to live records; `onRecord` gets each one, `onDropped` the count of records
    /// skipped because this reader was too slow. Returns when diagd closes the connection.
    public func stream(
        level: MessageType, processes: [String], predicate: String?,
        onRecord: (LogRecord) -> Void, onDropped: (Int) -> Void
    ) throws(DiagClientError) {
        try send(.subscribe(StreamRequest(level: level, processes: processes, predicate: predicate)))
        switch try nextReply() {
        case .error(let reason, _, _): throw DiagClientError(reason)
        case .subscribed: break
        default: throw DiagClientError("diagd did not accept the subscription")
        }
        // From here on the stream ends when diagd closes the connection, or at a line that
        // does not read (the connection is then no stream this command can follow).
        while let line = try? lines.next() {
            switch try? DaemonReply.parse(line) {
            case .record(let record)?: onRecord(record)
            case .dropped(let count)?: onDropped(count)
            default: continue
            }
        }
    }

    private func send(_ message: ClientMessage) throws(DiagClientError) {
        let bytes = message.line
        guard socket.writeAll(bytes) == bytes.count else {
            throw DiagClientError("cannot write to diagd at \(socketPath): \(String(cString: strerror(errno)))")
        }
    }

    private func nextReply() throws(DiagClientError) -> DaemonReply {
        let line: [UInt8]?
        do {
            line = try lines.next()
        } catch {
            throw DiagClientError("diagd at \(socketPath): \(error.description)")
        }
        guard let line else { throw DiagClientError("diagd at \(socketPath) closed the connection") }
        do {
            return try DaemonReply.parse(line)
        } catch {
            throw DiagClientError("diagd sent \(error.description)")
        }
    }
}

@available(*, unavailable) extension DaemonSession: Sendable {}
