import DiagProtocol
import Glibc

/// The daemon's listening Unix stream socket; owns the descriptor and removes the path on close.
///
/// A socket file left by a dead daemon is replaced; one a live daemon answers on is never displaced.
final class ListeningSocket {
    let path: String
    private(set) var descriptor: Int32

    /// Binds and listens at `path` with `mode`, giving the file to `groupID` when set.
    init(path: String, mode: mode_t = 0o660, groupID: gid_t? = nil, backlog: Int32 = 512) throws(IngestError) {
        self.path = path
        let address: UnixSocketAddress
        do { address = try UnixSocketAddress(path: path) } catch { throw IngestError(error.description) }
        try Self.removeStaleSocket(at: path, address: address)
        // A local until listening: once every stored property is set, a throw runs deinit, which
        // would close the descriptor a second time (by then perhaps another thread's file) and
        // remove the path.
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .system("cannot create a Unix socket") }
        // The umask decides the mode bind gives the file; chmod right after keeps the window closed.
        let oldMask = umask(0o177)
        let bound = address.withSockaddr { bind(descriptor, $0, $1) }
        let bindErrno = errno
        umask(oldMask)
        guard bound == 0 else {
            Glibc.close(descriptor)
            throw .system("cannot bind the socket \(path)", errno: bindErrno)
        }
        guard chmod(path, mode) == 0 else {
            let code = errno
            Glibc.close(descriptor); unlink(path)
            throw .system("cannot set mode \(String(mode, radix: 8)) on \(path)", errno: code)
        }
        if let groupID, chown(path, uid_t.max, groupID) != 0 {
            let code = errno
            Glibc.close(descriptor); unlink(path)
            throw .system("cannot give \(path) to group \(groupID)", errno: code)
        }
        guard listen(descriptor, backlog) == 0 else {
            let code = errno
            Glibc.close(descriptor); unlink(path)
            throw .system("cannot listen on \(path)", errno: code)
        }
        self.descriptor = descriptor
    }

    func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
        unlink(path)
    }

    deinit { close() }

    /// Unlinks a socket file nobody answers on; refuses a live one and anything that is not a socket.
    private static func removeStaleSocket(at path: String, address: UnixSocketAddress) throws(IngestError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw IngestError("\(path) exists and is not a socket; remove it or choose another --socket")
        }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { throw .system("cannot create a Unix socket") }
        defer { Glibc.close(probe) }
        if address.withSockaddr({ connect(probe, $0, $1) }) == 0 {
            throw IngestError("another diagd is listening on \(path); stop it first or choose another --socket")
        }
        guard unlink(path) == 0 || errno == ENOENT else {
            throw .system("cannot remove the stale socket \(path)")
        }
    }
}

@available(*, unavailable) extension ListeningSocket: Sendable {}
