import DiagProtocol
import Foundation
import Glibc

/// `sd_notify` without libsystemd: one datagram to `$NOTIFY_SOCKET` (a path, or `@name` for the
/// abstract namespace). Does nothing when the variable is unset (not started by systemd).
public enum SystemdNotifier {
    public static func notify(_ state: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty else { return }
        guard let address = try? UnixSocketAddress(path: path) else { return }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let message = Array(state.utf8)
        _ = address.withSockaddr { socketAddress, length in
            message.withUnsafeBytes { sendto(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), socketAddress, length) }
        }
    }
}
