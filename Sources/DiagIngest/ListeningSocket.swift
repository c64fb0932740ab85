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
        // Bound under a name of its own beside `path` and linked to `path` once it listens: a
        // client that waits for the file to appear (a script's `[ -S … ]`, a test) never finds it
        // refusing connections between bind and listen (a CI run under load failed so:
        // ECONNREFUSED on a file just made). `link`, unlike `rename`, fails when `path` exists, so
        // two daemons starting at once still cannot both take it. An abstract name, or one too
        // long for a staging name beside it, is bound directly.
        let staging = Self.stagingPath(for: path)
        let bindAddress = staging.flatMap { try? UnixSocketAddress(path: $0) } ?? address
        let file = staging ?? path
        if let staging { unlink(staging) }
        // The umask decides the mode bind gives the file; chmod right after keeps the window closed.
        let oldMask = umask(0o177)
        let bound = bindAddress.withSockaddr { bind(descriptor, $0, $1) }
        let bindErrno = errno
        umask(oldMask)
        guard bound == 0 else {
            Glibc.close(descriptor)
            throw .system("cannot bind the socket \(path)", errno: bindErrno)
        }
        guard chmod(file, mode) == 0 else {
            let code = errno
            Glibc.close(descriptor); unlink(file)
            throw .system("cannot set mode \(String(mode, radix: 8)) on \(path)", errno: code)
        }
        if let groupID, chown(file, uid_t.max, groupID) != 0 {
            let code = errno
            Glibc.close(descriptor); unlink(file)
            throw .system("cannot give \(path) to group \(groupID)", errno: code)
        }
        guard listen(descriptor, backlog) == 0 else {
            let code = errno
            Glibc.close(descriptor); unlink(file)
            throw .system("cannot listen on \(path)", errno: code)
        }
        if let staging {
            var linked = link(staging, path) == 0
            var code = errno
            // A file system without hard links: moved instead (`path` was free a moment ago).
            if !linked, code == EPERM || code == EOPNOTSUPP || code == EMLINK {
                linked = rename(staging, path) == 0
                code = errno
            }
            guard linked else {
                Glibc.close(descriptor); unlink(staging)
                // EEXIST: another daemon bound `path` meanwhile, what bind itself says EADDRINUSE to.
                throw .system("cannot bind the socket \(path)", errno: code == EEXIST ? EADDRINUSE : code)
            }
            unlink(staging)
        }
        self.descriptor = descriptor
    }

    /// `DIR/.NAME.PID.binding` beside `path` (`.NAME.PID.binding` for a bare name); nil for an
    /// abstract name (`@…`, no file) or when it would not fit a Unix socket address.
    static func stagingPath(for path: String) -> String? {
        guard !path.hasPrefix("@"), !path.hasSuffix("/") else { return nil }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let staging = "\(folder).\(name).\(getpid()).binding"
        return staging.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) ? staging : nil
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
