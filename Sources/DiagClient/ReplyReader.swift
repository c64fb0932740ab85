import DiagModel
import Glibc

/// Reads diagd's replies on one connection: `{"synced": ID}` releases `flush` calls,
/// `{"error": …, "line": N}` is counted and kept for `statistics`.
struct ReplyReader {
    let transport: LogTransport
    let socket: ClientSocket

    func run() {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(socket.descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            pending.append(contentsOf: chunk[0..<count])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                handle(Array(pending[..<newline]))
                pending.removeSubrange(...newline)
            }
        }
        transport.connectionBroke(generation: socket.generation, reason: "diagd closed the connection")
    }

    private func handle(_ line: [UInt8]) {
        guard let reply = try? JSONReader.parseObject(line) else { return }
        transport.condition.lock()
        defer { transport.condition.unlock() }
        if let id = reply["synced"]?.int64Value {
            transport.state.acknowledgedSync = max(transport.state.acknowledgedSync, id)
            transport.condition.broadcast()
        } else if let error = reply["error"]?.stringValue {
            transport.state.errorReplies += 1
            let line = reply["line"]?.int64Value.map { " (line \($0))" } ?? ""
            transport.state.lastErrorReply = error + line
        }
    }
}
