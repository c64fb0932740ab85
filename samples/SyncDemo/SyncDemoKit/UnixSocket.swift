import Glibc

/// A Unix stream socket descriptor, closed when released.
final class UnixSocket {
    let descriptor: Int32

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// A new, unconnected stream socket.
    static func stream() throws -> UnixSocket {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw DemoError.system("cannot create a Unix socket") }
        return UnixSocket(descriptor: descriptor)
    }

    deinit { close(descriptor) }

    /// Runs `body` with the `sockaddr_un` of `path`, refusing paths the kernel would truncate.
    static func withAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) throws -> T {
        var address = sockaddr_un()
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else {
            throw DemoError("socket path '\(path)' is \(bytes.count) bytes; a Unix socket path must be 1…\(capacity - 1) bytes (use a shorter --work folder)")
        }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// Gives up on a read or write that waits longer than `seconds`, so one stuck peer cannot
    /// hold a component forever.
    func setTimeout(seconds: Int) {
        var value = timeval(tv_sec: seconds, tv_usec: 0)
        let size = socklen_t(MemoryLayout<timeval>.size)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &value, size)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &value, size)
    }

    func writeAll(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if count > 0 { offset += count; continue }
            if count < 0 && errno == EINTR { continue }
            throw DemoError.system("cannot write to the socket")
        }
    }

    /// Reads up to the first newline (not included); nil when the peer closed before sending one.
    func readLine(limit: Int) throws -> [UInt8]? {
        var line: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { throw DemoError("the peer sent no complete line in time") }
                throw DemoError.system("cannot read from the socket")
            }
            if count == 0 { return line.isEmpty ? nil : line }
            if let newline = chunk[0..<count].firstIndex(of: UInt8(ascii: "\n")) {
                line.append(contentsOf: chunk[0..<newline])
                return line
            }
            line.append(contentsOf: chunk[0..<count])
            if line.count > limit { throw DemoError("a line longer than \(limit) bytes was refused") }
        }
    }
}
