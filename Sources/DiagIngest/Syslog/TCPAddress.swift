import Glibc

/// A listening address given as `HOST:PORT`, `[IPv6]:PORT` or a bare `PORT` (then loopback,
/// 127.0.0.1: a listener reachable from other machines must be asked for by address).
public struct TCPAddress: Sendable, Hashable, CustomStringConvertible {
    public let host: String
    public let port: UInt16

    /// Parses the option's value; the error says what is accepted.
    public init(parsing text: String, option: String) throws(IngestError) {
        let accepted = "write PORT (on 127.0.0.1), HOST:PORT or [IPv6]:PORT with a numeric address, e.g. 127.0.0.1:5514"
        var host = "127.0.0.1"
        var portText = text
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw IngestError("\(option) '\(text)': \(accepted)") }
            portText = String(rest.dropFirst())
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = String(text[text.index(after: colon)...])
        }
        if host == "localhost" { host = "127.0.0.1" }
        guard let port = UInt16(portText), Self.family(of: host) != nil else {
            throw IngestError("\(option) '\(text)': \(accepted)")
        }
        self.host = host
        self.port = port
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Whether only this machine can reach the address: 127.0.0.0/8 or ::1.
    public var isLoopback: Bool {
        if Self.family(of: host) == AF_INET {
            var v4 = in_addr()
            inet_pton(AF_INET, host, &v4)
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        inet_pton(AF_INET6, host, &v6)
        return withUnsafeBytes(of: &v6) { bytes in bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1 }
    }

    private static func family(of host: String) -> Int32? {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return AF_INET }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 { return AF_INET6 }
        return nil
    }

    /// A listening socket bound to the address (SO_REUSEADDR, close-on-exec).
    public func listen(backlog: Int32 = 512) throws(IngestError) -> Int32 {
        let family = Self.family(of: host)!
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .system("cannot create a TCP socket for \(self)") }
        var on: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let bound: Int32
        if family == AF_INET {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        } else {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        guard bound == 0, Glibc.listen(descriptor, backlog) == 0 else {
            let code = errno
            close(descriptor)
            throw .system("cannot listen on \(self)", errno: code)
        }
        return descriptor
    }

    /// `address:port` of a connected socket's peer, for records and the daemon's log.
    static func peerName(of descriptor: Int32) -> String {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let got = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) }
        }
        guard got == 0 else { return "?" }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        // inet_ntop's text, up to its terminating NUL.
        func written() -> String { String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        let family = storage.ss_family
        return withUnsafePointer(to: &storage) { pointer -> String in
            if family == sa_family_t(AF_INET) {
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var raw = address.pointee.sin_addr
                    inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
                    return "\(written()):\(UInt16(bigEndian: address.pointee.sin_port))"
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                var raw = address.pointee.sin6_addr
                inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
                return "[\(written())]:\(UInt16(bigEndian: address.pointee.sin6_port))"
            }
        }
    }
}
