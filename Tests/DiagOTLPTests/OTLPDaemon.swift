import DiagModel
import Foundation
import Glibc
import TestSupport

/// The built diagd with `--otlp-http` on a free loopback port and a temporary store: TestSupport's
/// `RunningDaemon`, ready once its stderr announces the receiver.
final class OTLPDaemon {
    let port: UInt16
    let daemon: RunningDaemon

    init(extra: [String] = [], storePath: String? = nil) throws {
        port = try LoopbackPort.free()
        daemon = try RunningDaemon(
            arguments: ["--otlp-http", "127.0.0.1:\(port)"] + extra, storePath: storePath,
            directory: try TemporaryDirectory("otlp"), readyText: "OTLP/HTTP on http://127.0.0.1:\(port)/v1/logs")
    }

    var directory: TemporaryDirectory { daemon.directory }
    var storePath: String { daemon.storePath }
    var process: Process { daemon.process }
    var endpoint: String { "http://127.0.0.1:\(port)/v1/logs" }
    var stderr: String { daemon.stderr }

    /// SIGTERM and the exit status (-1 when diagd had to be killed after 30 s).
    @discardableResult
    func stop() -> Int32 { daemon.stop() }

    /// The records committed so far that diagd did not log itself, oldest first.
    func clientRecords() throws -> [LogRecord] { try daemon.clientRecords() }
}

struct HTTPFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// An HTTP/1.1 exchange over a raw socket, so tests can send what no client library would.
struct HTTPReply {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
}

final class RawHTTPConnection {
    let descriptor: Int32

    init(port: UInt16) throws {
        descriptor = socket(AF_INET, Spawning.closeOnExec(SOCK_STREAM), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw HTTPFailure("cannot connect to 127.0.0.1:\(port): \(reason)")
        }
    }

    /// Sends everything it can; false when the server closed first.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }

    /// Reads the reply (until its Content-Length is in, or the server closes); nil after `timeout` s of silence.
    func readReply(timeout: Int32 = 60) -> HTTPReply? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let reply = Self.parse(received, complete: false) { return reply }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, timeout * 1000) > 0 else { return nil }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { return Self.parse(received, complete: true) }
            received.append(contentsOf: buffer[0..<count])
        }
    }

    /// Whether the server closed the connection within `seconds` (reading and dropping any reply).
    func closedByServer(within seconds: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date(timeIntervalSinceNow: Double(seconds))
        while Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 1000) >= 0 else { return true }
            if poller.revents != 0 && recv(descriptor, &buffer, buffer.count, 0) <= 0 { return true }
        }
        return false
    }

    func close() { Glibc.close(descriptor) }

    private static func parse(_ bytes: [UInt8], complete: Bool) -> HTTPReply? {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard bytes.count >= 4, let end = (0...(bytes.count - 4)).first(where: { Array(bytes[$0..<($0 + 4)]) == separator }) else { return nil }
        let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusLine = head.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") else { return nil }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = Array(bytes[(end + 4)...])
        if let length = headers["content-length"].flatMap(Int.init) {
            return body.count >= length ? HTTPReply(status: status, headers: headers, body: Array(body.prefix(length))) : nil
        }
        return complete ? HTTPReply(status: status, headers: headers, body: body) : nil
    }

    /// One POST on a fresh connection, and its reply.
    static func post(
        port: UInt16, path: String = "/v1/logs", method: String = "POST", contentType: String = "application/x-protobuf",
        encoding: String? = nil, body: [UInt8]
    ) throws -> HTTPReply {
        let connection = try RawHTTPConnection(port: port)
        defer { connection.close() }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
        if let encoding { head += "Content-Encoding: \(encoding)\r\n" }
        head += "Connection: close\r\n\r\n"
        connection.write(Array(head.utf8) + body)
        guard let reply = connection.readReply() else { throw HTTPFailure("no reply to \(method) \(path) within 60 s") }
        return reply
    }
}
