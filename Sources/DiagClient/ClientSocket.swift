import Glibc

/// A connected Unix stream socket to diagd; closes its descriptor when the last user lets go.
final class ClientSocket: @unchecked Sendable {
    // Safe: `descriptor` never changes; `generation` is written once, before the socket is
    // shared with the reply reader; reads and writes go to different directions of the socket.
    let descriptor: Int32
    var generation = 0

    init(path: String) throws(DiagClientError) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else {
            throw DiagClientError("socket path '\(path)' is \(bytes.count) bytes; a Unix socket path must be 1…\(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        // A local until connected: once every stored property is set, a throw from this init runs
        // deinit, which would close the descriptor a second time, and by then the number may
        // belong to a file another thread has just opened (an SQLite database, say).
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw DiagClientError("cannot create a socket: \(String(cString: strerror(errno)))") }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(descriptor)
            throw DiagClientError("cannot connect to diagd at \(path): \(String(cString: strerror(code)))")
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Writes all of `bytes`, waiting for room; returns how many were written before an error.
    func writeAll(_ bytes: [UInt8]) -> Int {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if count > 0 { offset += count; continue }
            if count < 0 && errno == EINTR { continue }
            return offset
        }
        return offset
    }

    /// Ends both directions, waking a reader blocked on the socket.
    func shutdown() {
        _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
    }
}
