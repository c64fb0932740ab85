import Foundation
import Glibc

/// A component's listening socket: answers one request line per connection, one connection at
/// a time, until a handler asks it to stop. A bad line gets an error reply; the server goes on.
public final class MessageServer {
    public let path: String
    private let listener: UnixSocket

    /// Binds `path` (replacing a stale socket file left by a crashed run) with mode 0600.
    public init(path: String) throws {
        self.path = path
        if let attributes = try? FileManager.default.attributesOfItem(atPath: path) {
            guard attributes[.type] as? FileAttributeType == .typeSocket else {
                throw DemoError("\(path) exists and is not a socket; refusing to replace it")
            }
            unlink(path)
        }
        listener = try UnixSocket.stream()
        let bound = try UnixSocket.withAddress(path) { bind(listener.descriptor, $0, $1) }
        guard bound == 0 else { throw DemoError.system("cannot bind \(path)") }
        chmod(path, 0o600)
        guard listen(listener.descriptor, 16) == 0 else { throw DemoError.system("cannot listen on \(path)") }
    }

    deinit { unlink(path) }

    /// What a handler answers, and whether the server stops after sending it.
    public struct Reply {
        public var message: DemoMessage
        public var stop: Bool
        public init(_ message: DemoMessage, stop: Bool = false) {
            self.message = message
            self.stop = stop
        }
    }

    /// Serves until a reply says stop. Handler errors become error replies.
    public func serve(_ handler: (DemoMessage) throws -> Reply) {
        while true {
            let descriptor = accept(listener.descriptor, nil, nil)
            if descriptor < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                FileHandle.standardError.write(Data("\(path): accept failed: \(String(cString: strerror(errno)))\n".utf8))
                return
            }
            let connection = UnixSocket(descriptor: descriptor)
            connection.setTimeout(seconds: 10)
            let reply: Reply
            do {
                guard let line = try connection.readLine(limit: DemoMessage.maximumLineBytes) else { continue }
                let request = try DemoMessage.decode(line: line)
                reply = try handler(request)
            } catch {
                reply = Reply(.failure(String(describing: error)))
            }
            try? connection.writeAll(reply.message.encodedLine())
            if reply.stop { return }
        }
    }
}

/// Sends requests to a component's socket.
public enum MessageClient {
    /// True when something accepts connections on the Unix socket at `path` (diagd, before a run).
    public static func canConnect(to path: String) -> Bool {
        guard let socket = try? UnixSocket.stream() else { return false }
        return (try? UnixSocket.withAddress(path) { connect(socket.descriptor, $0, $1) }) == 0
    }

    /// Sends `request` and returns the reply; waits up to `connectTimeout` seconds for the
    /// component to come up. A reply carrying `error` is thrown as a `DemoError`.
    public static func send(_ request: DemoMessage, to path: String, connectTimeout: Double = 10) throws -> DemoMessage {
        let deadline = Date(timeIntervalSinceNow: connectTimeout)
        while true {
            let socket = try UnixSocket.stream()
            let connected = try UnixSocket.withAddress(path) { connect(socket.descriptor, $0, $1) }
            if connected != 0 {
                let code = errno
                guard (code == ENOENT || code == ECONNREFUSED || code == EAGAIN), Date() < deadline else {
                    throw DemoError.system("cannot reach \(path) for '\(request.command)'", errno: code)
                }
                usleep(20_000)
                continue
            }
            socket.setTimeout(seconds: 30)
            try socket.writeAll(request.encodedLine())
            guard let line = try socket.readLine(limit: DemoMessage.maximumLineBytes) else {
                throw DemoError("\(path) closed the connection without answering '\(request.command)'")
            }
            let reply = try DemoMessage.decode(line: line)
            if let error = reply.error { throw DemoError("\(path) refused '\(request.command)': \(error)") }
            return reply
        }
    }
}
