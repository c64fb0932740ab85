import Foundation
import Glibc

/// `sd_notify` without libsystemd: one datagram to `$NOTIFY_SOCKET` (a path, or `@name` for the
/// abstract namespace). Does nothing when the variable is unset (not started by systemd).
public enum SystemdNotifier {
    public static func notify(_ state: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty else { return }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return }
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes.first == 0 ? 0 : 1))
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let message = Array(state.utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                message.withUnsafeBytes { sendto(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), socketAddress, length) }
            }
        }
    }
}
