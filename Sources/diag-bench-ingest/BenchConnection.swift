import DiagModel
import DiagProtocol
import Glibc

/// A blocking connection to diagd for the load client: writes bytes, reads reply lines.
final class BenchConnection {
    let descriptor: Int32
    private var pending: [UInt8] = []

    init(path: String) throws {
        switch try UnixSocketAddress(path: path).connectStream() {
        case .success(let connected): descriptor = connected
        case .failure(let error): throw BenchError("cannot connect to \(path): \(error.description)")
        }
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
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                let reply = try JSONReader.parseObject(line)
                if let error = reply["error"] { throw BenchError("diagd refused a line: \(error)") }
                if reply["synced"]?.int64Value == id { return }
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw BenchError("diagd closed the connection before answering sync \(id)") }
            pending.append(contentsOf: chunk[0..<count])
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
