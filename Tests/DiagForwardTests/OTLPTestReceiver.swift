import Foundation
import TestSupport
import Glibc
import Synchronization

/// A small HTTP/1.1 server on a loopback port standing in for an OpenTelemetry collector: it
/// keeps every request as it arrived and answers from a script, then with `200 {}`.
final class OTLPTestReceiver: Sendable {
    enum Reply: Sendable {
        case status(Int, headers: [String: String] = [:], body: String = "{}")
        /// Sends a status line and headers promising a body, part of it, then closes.
        case closeMidResponse
        /// Sends raw bytes as the whole answer, then closes.
        case raw([UInt8])
        /// Never answers; the connection stays open until the client gives up or `stop()`.
        case hang
    }

    struct Request: Sendable {
        var method: String
        var path: String
        /// Header names lowercased.
        var headers: [String: String]
        var body: [UInt8]
        /// The reply it got.
        var reply: Reply
    }

    let port: UInt16
    private let listener: Int32
    /// Shared with the server threads, which hold no reference to the receiver: releasing it
    /// stops them.
    private let state: Shared

    init(replies: [Reply] = []) throws {
        listener = socket(AF_INET, Spawning.closeOnExec(SOCK_STREAM), 0)
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let descriptor = listener
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && listen(descriptor, 16) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            close(listener)
            throw ReceiverError(description: "cannot listen on 127.0.0.1: \(reason)")
        }
        port = UInt16(bigEndian: address.sin_port)
        let state = Shared(replies)
        self.state = state
        let thread = Thread { [listener] in Self.acceptLoop(listener, state) }
        thread.start()
    }

    var endpoint: URL { URL(string: "http://127.0.0.1:\(port)/v1/logs")! }

    var requests: [Request] { state.value.withLock { $0.requests } }

    /// While set, every request is answered `503` without `Retry-After` (the script waits).
    var unavailable: Bool {
        get { state.value.withLock { $0.unavailable } }
        set { state.value.withLock { $0.unavailable = newValue } }
    }

    /// Stops listening and drops every open connection.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        let open = state.value.withLock { state in
            defer { state.connections = [] }
            return state.connections
        }
        for connection in open { shutdown(connection, Int32(SHUT_RDWR)) }
    }

    deinit {
        stop()
        close(listener)
    }

    private final class Shared: Sendable {
        let value: Mutex<(script: [Reply], requests: [Request], connections: [Int32], unavailable: Bool)>
        init(_ replies: [Reply]) { value = Mutex((replies, [], [], false)) }
    }

    private static func acceptLoop(_ listener: Int32, _ state: Shared) {
        while true {
            let connection = Spawning.accept(listener)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            state.value.withLock { $0.connections.append(connection) }
            let thread = Thread { serve(connection, state) }
            thread.start()
        }
    }

    /// Reads requests on one connection (keep-alive) until the client or a reply closes it.
    private static func serve(_ connection: Int32, _ state: Shared) {
        defer {
            state.value.withLock { $0.connections.removeAll { $0 == connection } }
            close(connection)
        }
        var reader = HTTPRequestReader(descriptor: connection)
        while let parsed = reader.next() {
            let reply: Reply = state.value.withLock { state in
                let reply = state.unavailable ? Reply.status(503, body: #"{"message":"unavailable"}"#)
                    : state.script.isEmpty ? Reply.status(200) : state.script.removeFirst()
                state.requests.append(Request(method: parsed.method, path: parsed.path, headers: parsed.headers, body: parsed.body, reply: reply))
                return reply
            }
            switch reply {
            case .status(let code, let headers, let body):
                var head = "HTTP/1.1 \(code) Status\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
                for (name, value) in headers { head += "\(name): \(value)\r\n" }
                guard writeAll(connection, Array((head + "\r\n" + body).utf8)) else { return }
            case .closeMidResponse:
                _ = writeAll(connection, Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{\"partialSu".utf8))
                return
            case .raw(let bytes):
                _ = writeAll(connection, bytes)
                return
            case .hang:
                var byte: UInt8 = 0
                // Returns when the client closes its end (or the receive timeout passes).
                _ = recv(connection, &byte, 1, Int32(MSG_WAITALL))
                return
            }
        }
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }
}

struct ReceiverError: Error, CustomStringConvertible {
    let description: String
}
