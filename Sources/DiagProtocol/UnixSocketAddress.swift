import Glibc

/// A `sockaddr_un` for a path, refusing paths the kernel would silently truncate. A path that
/// starts with `@` names the abstract namespace (as systemd's `$NOTIFY_SOCKET` does).
public struct UnixSocketAddress: Sendable {
    private var storage = sockaddr_un()
    private var length: socklen_t

    public init(path: String) throws(UnixSocketAddressError) {
        var bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: storage.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else {
            throw UnixSocketAddressError(description: "socket path '\(path)' is \(bytes.count) bytes; a Unix socket path must be 1…\(capacity - 1) bytes")
        }
        let abstract = bytes[0] == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            raw.copyBytes(from: bytes)
            if !abstract { raw[bytes.count] = 0 }
        }
        // An abstract name is exactly its bytes; a path socket passes the whole structure.
        length = abstract
            ? socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
            : socklen_t(MemoryLayout<sockaddr_un>.size)
    }

    public func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var copy = storage
        return withUnsafePointer(to: &copy) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// Connects a new stream socket (close-on-exec) to this address; returns the descriptor,
    /// or the `errno` of the call that failed (the socket is closed then).
    public func connectStream() -> Result<Int32, UnixSocketAddressError> {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return .failure(.system("cannot create a socket")) }
        let result = withSockaddr { Glibc.connect(descriptor, $0, $1) }
        guard result == 0 else {
            let failure = UnixSocketAddressError.system(nil)
            close(descriptor)
            return .failure(failure)
        }
        return .success(descriptor)
    }
}

/// A socket path that cannot be an address, or a failed socket call, with `errno`'s text.
public struct UnixSocketAddressError: Error, CustomStringConvertible, Sendable {
    public let description: String
    /// The `errno` of the failed call, or 0 for a bad path.
    public var code: Int32 = 0

    /// `what: reason`, or the reason alone for a failed connect (the caller names the peer).
    static func system(_ what: String?) -> UnixSocketAddressError {
        let code = errno
        let reason = String(cString: strerror(code))
        return UnixSocketAddressError(description: what.map { "\($0): \(reason)" } ?? reason, code: code)
    }
}

