import DiagModel
import DiagProtocol
import Glibc

/// A connection that asked for `{"subscribe": …}`: from then on it receives live records as
/// NDJSON lines, and `{"dropped": N}` when it read too slowly and N records were skipped.
struct StreamSession {
    let connection: Connection
    let context: IngestContext
    let request: StreamRequest

    func run() {
        let filter: (@Sendable (LogRecord) -> Bool)?
        do {
            filter = try context.makeStreamFilter(request.predicate)
        } catch {
            connection.send(.object(["error": .string("\(error)")]))
            _ = connection.sendWaiting([], threshold: 0)
            return
        }
        let subscriber = StreamSubscriber(request: request, filter: filter)
        context.hub.add(subscriber)
        defer { context.hub.remove(subscriber) }
        guard connection.sendWaiting(lineBytes(.object(["subscribed": request.json]))) else { return }
        while !peerHasGone() {
            let (records, dropped, closed) = subscriber.next(waitSeconds: 0.25)
            if closed { break }
            if dropped > 0 {
                guard connection.sendWaiting(lineBytes(.object(["dropped": .int(Int64(dropped))]))) else { return }
            }
            guard !records.isEmpty else { continue }
            var writer = JSONWriter(reservingCapacity: records.count * 256)
            for record in records {
                record.writeJSON(to: &writer)
                writer.bytes.append(UInt8(ascii: "\n"))
            }
            guard connection.sendWaiting(writer.bytes) else { return }
        }
        _ = connection.sendWaiting([], threshold: 0)
    }

    private func lineBytes(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.append(value)
        writer.bytes.append(UInt8(ascii: "\n"))
        return writer.bytes
    }

    /// Whether the client closed its end; anything it still sends on a stream is ignored.
    private func peerHasGone() -> Bool {
        var poller = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return connection.isBroken }
        if poller.revents & Int16(POLLHUP | POLLERR) != 0 { return true }
        var scratch = [UInt8](repeating: 0, count: 4096)
        let count = scratch.withUnsafeMutableBytes { read(connection.descriptor, $0.baseAddress, $0.count) }
        return count <= 0
    }
}
