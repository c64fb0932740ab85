import DiagModel
import Foundation
import Glibc

/// The tests' one client of diagd's socket that speaks the protocol by hand (docs/PROTOCOL.md):
/// raw bytes out, hostile ones included, and reply lines back as JSON objects, so a test checks
/// exactly what diagd wrote. Components log through DiagClient instead.
public final class DaemonClient {
    public let descriptor: Int32
    private var pending: [UInt8] = []

    public init(path: String) throws {
        descriptor = try UnixSocket.connect(path: path)
    }

    deinit { Glibc.close(descriptor) }

    /// Writes every byte, or stops at the first failure (diagd closed the connection): a test
    /// of hostile input goes on to read what diagd answered.
    public func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            offset += count
        }
    }

    public func write(_ text: String) { write(Array(text.utf8)) }

    /// Ends the client's side: diagd reads the end of input after what was written.
    public func finishWriting() { shutdown(descriptor, Int32(SHUT_WR)) }

    /// The next reply line as a JSON object (an empty one when the line is not an object); nil
    /// at the end of the stream or when nothing comes for `timeout` seconds.
    public func readReply(timeout: Int32 = 30) -> [String: JSONValue]? {
        readLine(timeout: timeout).map { (try? JSONReader.parseObject($0)) ?? [:] }
    }

    /// The next reply line without its newline, as diagd wrote it.
    public func readLine(timeout: Int32 = 30) -> [UInt8]? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                return line
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, timeout * 1000) > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            pending.append(contentsOf: chunk[0..<count])
        }
    }

    /// Reads replies until `{"synced": id}`; returns the replies before it, or nil when the
    /// connection ended (or went quiet for 30 s) first.
    public func waitForSync(_ id: Int64) -> [[String: JSONValue]]? {
        var others: [[String: JSONValue]] = []
        while let reply = readReply() {
            if reply["synced"]?.int64Value == id { return others }
            others.append(reply)
        }
        return nil
    }

    /// Sends `{"sync": id}` and waits for `{"synced": id}`: every record sent before is committed.
    /// Returns the replies before it (errors for refused lines).
    @discardableResult
    public func sync(_ id: Int64) throws -> [[String: JSONValue]] {
        write("{\"sync\":\(id)}\n")
        guard let others = waitForSync(id) else { throw DaemonFailure("diagd closed the connection before answering {\"sync\":\(id)}") }
        return others
    }

    /// Ends both directions now; the descriptor closes with the client.
    public func close() { shutdown(descriptor, Int32(SHUT_RDWR)) }
}
