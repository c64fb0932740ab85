import Foundation

/// A TCP port on 127.0.0.1 that nothing listens on now (the kernel's pick for port 0), for the
/// tests that start a real receiver (rsyslogd, PostgreSQL) on loopback.
public enum LoopbackPort {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public static func free() throws -> UInt16 {
        let descriptor = socket(AF_INET, Spawning.closeOnExec(SOCK_STREAM), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "no free loopback port: \(String(cString: strerror(errno)))") }
        return UInt16(bigEndian: address.sin_port)
    }
}
