import DiagProtocol
import Glibc

/// A blocking connection to diagd for the load client: writes bytes, reads reply lines.
final class BenchConnection {
    let descriptor: Int32
    private var replies: ReplyLineReader

    init(path: String) throws {
        switch try UnixSocketAddress(path: path).connectStream() {
        case .success(let connected): descriptor = connected
        case .failure(let error): throw BenchError("cannot connect to \(path): \(error.description)")
        }
        replies = ReplyLineReader(descriptor: descriptor, blockSize: 4096)
    }

    deinit { close(descriptor) }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw BenchError("write to diagd failed: \(String(cString: strerror(errno)))") }
            offset += count
        }
    }

    /// Reads replies until `{"synced": id}`; an error reply fails the run.
    func waitForSync(_ id: Int64) throws {
        while true {
            guard let line = try replies.next() else { throw BenchError("diagd closed the connection before answering sync \(id)") }
            switch try DaemonReply.parse(line) {
            case .error(let reason, let number, _): throw BenchError("diagd refused line \(number.map(String.init) ?? "?"): \(reason)")
            case .synced(let answered) where answered.int64Value == id: return
            default: continue
            }
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
