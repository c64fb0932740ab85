import Foundation
import Glibc

/// A socket systemd opened for diagd (socket activation: `$LISTEN_PID`, `$LISTEN_FDS`, the
/// descriptors from 3 on), so that `systemd/diagd-syslog.socket` can hold `/dev/log` while
/// diagd restarts: datagrams sent meanwhile wait in the socket instead of being refused.
enum InheritedSocket {
    /// The inherited Unix datagram socket bound to `path`, or nil when systemd passed none.
    static func datagram(boundTo path: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> Int32? {
        guard let pid = environment["LISTEN_PID"].flatMap(Int32.init), pid == getpid(),
              let count = environment["LISTEN_FDS"].flatMap(Int32.init), count > 0, count < 1024
        else { return nil }
        for descriptor in 3..<(3 + count) {
            var type: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(descriptor, SOL_SOCKET, SO_TYPE, &type, &length) == 0, type == Int32(SOCK_DGRAM.rawValue),
                  boundPath(of: descriptor) == path
            else { continue }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            return descriptor
        }
        return nil
    }

    private static func boundPath(of descriptor: Int32) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let got = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard got == 0, address.sun_family == sa_family_t(AF_UNIX) else { return nil }
        return withUnsafeBytes(of: &address.sun_path) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
