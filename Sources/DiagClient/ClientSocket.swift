import DiagProtocol
import Glibc

/// A connected Unix stream socket to diagd; closes its descriptor when the last user lets go.
final class ClientSocket: @unchecked Sendable {
    // Safe: `descriptor` never changes; `generation` is written once, before the socket is
    // shared with the reply reader; reads and writes go to different directions of the socket.
    let descriptor: Int32
    var generation = 0

    init(path: String) throws(DiagClientError) {
        let address: UnixSocketAddress
        do { address = try UnixSocketAddress(path: path) } catch { throw DiagClientError(error.description) }
        // A local until connected: once every stored property is set, a throw from this init runs
        // deinit, which would close the descriptor a second time, and by then the number may
        // belong to a file another thread has just opened (an SQLite database, say).
        let descriptor: Int32
        switch address.connectStream() {
        case .success(let connected): descriptor = connected
        case .failure(let error): throw DiagClientError("cannot connect to diagd at \(path): \(error.description)")
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
