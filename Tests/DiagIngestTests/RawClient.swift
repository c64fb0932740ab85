import DiagModel
import Foundation
import Glibc
import TestSupport

/// A client that speaks the protocol by hand, for hostile input.
final class RawClient {
    let descriptor: Int32

    init(path: String) throws {
        descriptor = try UnixSocket.connect(path: path)
    }

    func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            offset += count
        }
    }

    func write(_ text: String) { write(Array(text.utf8)) }

    func finishWriting() { shutdown(descriptor, Int32(SHUT_WR)) }

    private var pending: [UInt8] = []

    /// The next reply line, parsed; nil at the end of the stream or after `timeout` seconds.
    func readReply(timeout: Int32 = 30) -> [String: JSONValue]? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                return try? JSONReader.parseObject(line)
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, timeout * 1000) > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            pending.append(contentsOf: chunk[0..<count])
        }
    }

    /// Reads replies until `{"synced": id}`; returns the replies before it.
    func waitForSync(_ id: Int64) -> [[String: JSONValue]]? {
        var others: [[String: JSONValue]] = []
        while let reply = readReply() {
            if reply["synced"]?.int64Value == id { return others }
            others.append(reply)
        }
        return nil
    }

    func close() { shutdown(descriptor, Int32(SHUT_RDWR)) }

    deinit { Glibc.close(descriptor) }
}
