import DiagModel
import DiagProtocol
import Foundation

/// Asks a running diagd for the records it holds only in memory (its Debug ring): sends
/// `{"ring": true}` on its socket and reads NDJSON records up to `{"end": N}`.
public enum DaemonRing {
    /// The ring's records, or nil when no daemon answers at `socketPath` (not running, or a
    /// stale socket). Throws when a daemon answers with something that is not a ring.
    public static func fetch(socketPath: String, timeoutSeconds: Int = 30) throws -> [LogRecord]? {
        guard let address = try? UnixSocketAddress(path: socketPath),
              case .success(let descriptor) = address.connectStream()
        else { return nil }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("{\"ring\": true}\n".utf8)
        guard send(descriptor, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else {
            throw BundleError.failure("diagd at \(socketPath) accepted a connection but not the ring request: \(String(cString: strerror(errno)))")
        }
        var records: [LogRecord] = []
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var lineNumber = 0
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else {
                let reason = count == 0 ? "closed the connection" : String(cString: strerror(errno))
                throw BundleError.failure("diagd at \(socketPath) stopped before the end of its ring (\(records.count) records read): \(reason)")
            }
            pending.append(contentsOf: buffer[0..<count])
            var lineStart = 0
            while let newline = pending[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(pending[lineStart..<newline])
                lineStart = newline + 1
                lineNumber += 1
                guard !line.isEmpty else { continue }
                let object: [String: JSONValue]
                do {
                    object = try JSONReader.parseObject(line)
                } catch {
                    throw BundleError.failure("diagd's ring reply, line \(lineNumber): \(error)")
                }
                if object["end"] != nil { return records }
                if let message = object["error"]?.stringValue {
                    throw BundleError.failure("diagd refused the ring request: \(message)")
                }
                do {
                    records.append(try LogRecord(json: object))
                } catch {
                    throw BundleError.failure("diagd's ring reply, line \(lineNumber): \(error)")
                }
            }
            pending.removeFirst(lineStart)
        }
    }
}
