import Foundation
import Glibc

/// A connected Unix stream socket for tests that speak diagd's protocol by hand.
public enum UnixSocket {
    public struct ConnectError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Connects to `path` and returns the descriptor, with a 30 s receive timeout so that a
    /// test waiting for a reply fails instead of hanging.
    public static func connect(path: String) throws -> Int32 {
        var address = sockaddr_un()
        let bytes = Array(path.utf8) + [0]
        guard bytes.count <= MemoryLayout.size(ofValue: address.sun_path) else {
            throw ConnectError(description: "connect \(path): the path is longer than a Unix socket address holds")
        }
        let descriptor = socket(AF_UNIX, Spawning.closeOnExec(SOCK_STREAM), 0)
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw ConnectError(description: "connect \(path): \(reason)")
        }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return descriptor
    }
}
