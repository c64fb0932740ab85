import Glibc

/// A `sockaddr_un` for a path, refusing paths the kernel would silently truncate.
struct SocketAddress {
    var storage = sockaddr_un()

    init(path: String) throws(IngestError) {
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: storage.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else {
            throw IngestError("socket path '\(path)' is \(bytes.count) bytes; a Unix socket path must be 1…\(capacity - 1) bytes")
        }
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
    }

    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var copy = storage
        return withUnsafePointer(to: &copy) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }
}

/// An error of the daemon's setup or I/O, with what went wrong and where.
public struct IngestError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) { self.description = description }

    /// An error from a failed system call, with `errno`'s text.
    static func system(_ what: String, errno code: Int32 = errno) -> IngestError {
        IngestError("\(what): \(String(cString: strerror(code))) (errno \(code))")
    }
}
