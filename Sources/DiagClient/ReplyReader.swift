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
        switch reply {
        case .synced(let id):
            guard let id = id.int64Value else { return }
            transport.shared.withLock { shared in
                shared.state.acknowledgedSync = max(shared.state.acknowledgedSync, id)
                shared.flushes.wakeAll()
            }
        case .error(let reason, let line, _):
            let text = reason + (line.map { " (line \($0))" } ?? "")
            transport.shared.withLock { shared in
                shared.state.errorReplies += 1
                shared.state.lastErrorReply = text
            }
        default:
            break
        }
    }
}
