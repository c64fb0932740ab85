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
        let request = ClientMessage.ring.line
        guard send(descriptor, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else {
            throw BundleError.failure("diagd at \(socketPath) accepted a connection but not the ring request: \(String(cString: strerror(errno)))")
        }
        var records: [LogRecord] = []
        var lines = ReplyLineReader(descriptor: descriptor)
        var lineNumber = 0
        while true {
            let line: [UInt8]?
            do {
                line = try lines.next()
            } catch {
                throw BundleError.failure("diagd at \(socketPath) stopped before the end of its ring (\(records.count) records read): \(error.description)")
            }
            guard let line else {
                throw BundleError.failure("diagd at \(socketPath) stopped before the end of its ring (\(records.count) records read): closed the connection")
            }
            lineNumber += 1
            guard !line.isEmpty else { continue }
            let reply: DaemonReply
            do {
                reply = try DaemonReply.parse(line)
            } catch {
                throw BundleError.failure("diagd's ring reply, line \(lineNumber): \(error)")
            }
            switch reply {
            case .record(let record): records.append(record)
            case .end: return records
            case .error(let reason, _, _): throw BundleError.failure("diagd refused the ring request: \(reason)")
            default: throw BundleError.failure("diagd's ring reply, line \(lineNumber): a reply other than a record or {\"end\": N}")
            }
        }
    }
}
