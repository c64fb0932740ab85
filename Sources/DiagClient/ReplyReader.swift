import DiagModel
import DiagProtocol
import Glibc

/// Reads diagd's replies on one connection: `{"synced": ID}` releases `flush` calls,
/// `{"error": …, "line": N}` is counted and kept for `statistics`.
struct ReplyReader {
    let transport: LogTransport
    let socket: ClientSocket

    func run() {
        var lines = ReplyLineReader(descriptor: socket.descriptor, blockSize: 16 << 10)
        var reason = "diagd closed the connection"
        do {
            while let line = try lines.next() { handle(line) }
        } catch {
            reason = "diagd's replies: \(error.description)"
        }
        transport.connectionBroke(generation: socket.generation, reason: reason)
    }

    private func handle(_ line: [UInt8]) {
        // A reply of another kind, or one that does not read, is no acknowledgement: skipped.
        guard let reply = try? DaemonReply.parse(line) else { return }
        transport.condition.lock()
        defer { transport.condition.unlock() }
        switch reply {
        case .synced(let id):
            guard let id = id.int64Value else { return }
            transport.state.acknowledgedSync = max(transport.state.acknowledgedSync, id)
            transport.condition.broadcast()
        case .error(let reason, let line, _):
            transport.state.errorReplies += 1
            transport.state.lastErrorReply = reason + (line.map { " (line \($0))" } ?? "")
        default:
            break
        }
    }
}
