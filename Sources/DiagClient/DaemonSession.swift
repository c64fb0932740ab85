import DiagModel
import Foundation
import Glibc

/// A request-and-reply connection to diagd, for tools rather than components: the memory ring
/// (`diag collect`), level settings (`diag config`) and live streams (`diag stream`).
/// docs/PROTOCOL.md describes each request.
public final class DaemonSession {
    private let socket: ClientSocket
    private var pending: [UInt8] = []
    /// Where the unread part of `pending` starts.
    private var readOffset = 0
    public let socketPath: String

    public init(socketPath: String? = nil) throws(DiagClientError) {
        let path = socketPath ?? DefaultSocket.path()
        self.socketPath = path
        socket = try ClientSocket(path: path)
    }

    /// The records diagd keeps in memory only (Debug by default), oldest first.
    public func ringRecords() throws(DiagClientError) -> [LogRecord] {
        try send(["ring": true])
        var records: [LogRecord] = []
        while true {
            let line = try nextLine()
            if let reply = try? JSONReader.parseObject(line), reply["eventMessage"] == nil {
                if reply["end"] != nil { return records }
                if let error = reply["error"]?.stringValue { throw DiagClientError("diagd refused the ring request: \(error)") }
                continue
            }
            do {
                records.append(try LogRecord(jsonBytes: line))
            } catch {
                throw DiagClientError("diagd sent a ring record that does not read: \(error)")
            }
        }
    }

    /// Changes the mode of a subsystem (or one of its categories, or with neither, of everything)
    /// and returns every setting now in force as `subsystem[:category] mode` lines. A nil `mode`
    /// changes nothing and lists the settings.
    public func configure(subsystem: String?, category: String?, mode: String?) throws(DiagClientError) -> [String] {
        var request: [String: JSONValue] = [:]
        if let subsystem { request["subsystem"] = .string(subsystem) }
        if let category { request["category"] = .string(category) }
        if let mode { request["mode"] = .string(mode) }
        return try exchangeConfig(request)
    }

    /// Removes the setting of a category, of a subsystem (with its categories'), or with neither,
    /// every setting, as `log config --reset`; returns the settings now in force, as `configure`.
    public func resetConfiguration(subsystem: String?, category: String?) throws(DiagClientError) -> [String] {
        var request: [String: JSONValue] = ["reset": .bool(true)]
        if let subsystem { request["subsystem"] = .string(subsystem) }
        if let category { request["category"] = .string(category) }
        return try exchangeConfig(request)
    }

    private func exchangeConfig(_ request: [String: JSONValue]) throws(DiagClientError) -> [String] {
        try send(["config": .object(request)])
        let reply = try nextReply()
        if let error = reply["error"]?.stringValue { throw DiagClientError(error) }
        guard case .array(let settings)? = reply["configured"] else {
            throw DiagClientError("diagd gave no settings in reply to a config request")
        }
        return settings.compactMap { setting -> String? in
            guard let members = setting.objectValue, let mode = members["mode"]?.stringValue else { return nil }
            let scope = [members["subsystem"]?.stringValue, members["category"]?.stringValue].compactMap { $0 }
            return "\(scope.isEmpty ? "(all)" : scope.joined(separator: ":")) \(mode)"
        }
    }

    /// Subscribes to live records; `onRecord` gets each one, `onDropped` the count of records
    /// skipped because this reader was too slow. Returns when diagd closes the connection.
    public func stream(
        level: MessageType, processes: [String], predicate: String?,
        onRecord: (LogRecord) -> Void, onDropped: (Int) -> Void
    ) throws(DiagClientError) {
        var request: [String: JSONValue] = ["level": .string(level.name.lowercased())]
        if !processes.isEmpty { request["processes"] = .array(processes.map { .string($0) }) }
        if let predicate { request["predicate"] = .string(predicate) }
        try send(["subscribe": .object(request)])
        let first = try nextReply()
        if let error = first["error"]?.stringValue { throw DiagClientError(error) }
        guard first["subscribed"] != nil else { throw DiagClientError("diagd did not accept the subscription") }
        while let line = try? nextLine() {
            if line.first == UInt8(ascii: "{"), let record = try? LogRecord(jsonBytes: line) {
                onRecord(record)
            } else if let reply = try? JSONReader.parseObject(line), let dropped = reply["dropped"]?.int64Value {
                onDropped(Int(dropped))
            }
        }
    }

    private func send(_ request: [String: JSONValue]) throws(DiagClientError) {
        var writer = JSONWriter()
        writer.append(.object(request))
        writer.bytes.append(UInt8(ascii: "\n"))
        guard socket.writeAll(writer.bytes) == writer.bytes.count else {
            throw DiagClientError("cannot write to diagd at \(socketPath): \(String(cString: strerror(errno)))")
        }
    }

    private func nextReply() throws(DiagClientError) -> [String: JSONValue] {
        let line = try nextLine()
        do {
            return try JSONReader.parseObject(line)
        } catch {
            throw DiagClientError("diagd sent a reply that does not read: \(error)")
        }
    }

    private func nextLine() throws(DiagClientError) -> [UInt8] {
        while true {
            if let newline = pending[readOffset...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(pending[readOffset..<newline])
                readOffset = newline + 1
                return line
            }
            pending.removeFirst(readOffset)
            readOffset = 0
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            let count = chunk.withUnsafeMutableBytes { read(socket.descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw DiagClientError("diagd at \(socketPath) closed the connection") }
            pending.append(contentsOf: chunk[0..<count])
        }
    }
}

@available(*, unavailable) extension DaemonSession: Sendable {}
