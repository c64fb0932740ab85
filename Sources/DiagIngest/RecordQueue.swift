import DiagModel
import Foundation

/// The bounded hand-off from the connection threads to the single writer thread.
///
/// Capacity counts records: a full queue blocks `push`, so the connection stops reading and the
/// client's writes block in turn (back-pressure) instead of the daemon's memory growing.
final class RecordQueue: @unchecked Sendable {
    // Safe: every field is read and written with `condition` locked.
    enum Item {
        case records([LogRecord])
        /// Answered once every record queued before it is committed.
        case sync(Connection, JSONValue)
    }

    let capacity: Int
    private let condition = NSCondition()
    private var items: [Item] = []
    private var queuedRecords = 0
    private var closed = false

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Queues records, waiting while the queue is full. Returns false once the queue is closed.
    @discardableResult
    func push(_ records: [LogRecord]) -> Bool {
        guard !records.isEmpty else { return true }
        condition.lock()
        defer { condition.unlock() }
        while queuedRecords >= capacity && !closed { condition.wait() }
        guard !closed else { return false }
        items.append(.records(records))
        queuedRecords += records.count
        condition.broadcast()
        return true
    }

    /// Queues records only if there is room now: for the daemon's own diagnostics, which must never block.
    func offer(_ record: LogRecord) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !closed, queuedRecords < capacity else { return false }
        items.append(.records([record]))
        queuedRecords += 1
        condition.broadcast()
        return true
    }

    @discardableResult
    func pushSync(_ connection: Connection, id: JSONValue) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return false }
        items.append(.sync(connection, id))
        condition.broadcast()
        return true
    }

    /// Takes everything queued, up to about `maximumRecords`, waiting for at least one item.
    /// Returns nil when the queue is closed and empty.
    func take(maximumRecords: Int, waitSeconds: Double) -> [Item]? {
        condition.lock()
        defer { condition.unlock() }
        if items.isEmpty && !closed {
            _ = condition.wait(until: Date(timeIntervalSinceNow: waitSeconds))
        }
        if items.isEmpty { return closed ? nil : [] }
        var taken = 0
        var count = 0
        for item in items {
            if case .records(let records) = item {
                if taken > 0 && taken + records.count > maximumRecords { break }
                taken += records.count
            }
            count += 1
        }
        let batch = Array(items[0..<count])
        items.removeFirst(count)
        queuedRecords -= taken
        condition.broadcast()
        return batch
    }

    /// Stops accepting; the writer drains what is left, then `take` returns nil.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
