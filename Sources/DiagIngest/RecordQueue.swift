import DiagModel
import Foundation

/// The bounded hand-off from the connection threads to the single writer thread.
///
/// Connection threads append their records, packed as the bind values of their rows
/// (`PackedRecords`), to one contiguous buffer, so the writer takes a whole transaction's worth
/// by swapping buffers, and the packing and copying happen on the connection threads rather
/// than on the one writer. Capacity counts records: a full queue blocks `push`,
/// so the connection stops reading and the client's writes block in turn (back-pressure)
/// instead of the daemon's memory growing.
final class RecordQueue: @unchecked Sendable {
    // Safe: every field is read and written with `condition` locked.

    /// A `sync` waiting for the records before it: `position` counts every record ever queued;
    /// `reply` is called by the writer once they are committed.
    struct PendingSync {
        let position: Int
        let reply: @Sendable () -> Void
    }

    /// What the writer takes at once: records for one transaction, then the syncs they cover.
    struct Drain {
        var records: PackedRecords
        var syncs: [PendingSync]
    }

    let capacity: Int
    /// Bytes of the lines behind the queued records: a second bound, for records of up to 1 MiB.
    let byteCapacity: Int
    private var pendingBytes = 0
    private let condition = NSCondition()
    private var pending = PackedRecords()
    /// An emptied buffer handed back by the writer, swapped in to keep its capacity.
    private var spare = PackedRecords()
    private var syncs: [PendingSync] = []
    private var queuedTotal = 0
    private var closed = false

    init(capacity: Int, byteCapacity: Int = 48 << 20) {
        self.capacity = capacity
        self.byteCapacity = byteCapacity
    }

    /// Queues records, waiting while the queue is full. Returns false once the queue is closed.
    @discardableResult
    func push(_ records: [LogRecord], bytes: Int) -> Bool {
        push(PackedRecords(records), bytes: bytes)
    }

    @discardableResult
    func push(_ records: PackedRecords, bytes: Int) -> Bool {
        var records = records
        return push(taking: &records, bytes: bytes)
    }

    /// The same, emptying `records` but leaving it its capacity: the rows are copied (one
    /// memcpy) into the queue's buffer, which keeps its own capacity from batch to batch, so
    /// neither side grows a fresh buffer, page fault by page fault, for every read.
    @discardableResult
    func push(taking records: inout PackedRecords, bytes: Int) -> Bool {
        guard !records.isEmpty else { return true }
        condition.lock()
        defer { condition.unlock() }
        while (pending.count >= capacity || pendingBytes >= byteCapacity) && !closed { condition.wait() }
        guard !closed else { return false }
        queuedTotal += records.count
        pendingBytes += bytes
        if pending.isEmpty && pending.capacity < spare.capacity { swap(&pending, &spare) }
        pending.append(contentsOf: records)
        records.removeAll(keepingCapacity: true)
        condition.broadcast()
        return true
    }


    /// Queues records if there is room within `waitSeconds`: for syslog datagrams, whose reader
    /// must not stall forever behind a stuck writer. Returns false (nothing queued) when still
    /// full then, or closed.
    func offer(_ records: [LogRecord], bytes: Int, waitSeconds: Double) -> Bool {
        offer(PackedRecords(records), bytes: bytes, waitSeconds: waitSeconds)
    }

    func offer(_ packed: PackedRecords, bytes: Int, waitSeconds: Double) -> Bool {
        guard !packed.isEmpty else { return true }
        let deadline = Date(timeIntervalSinceNow: waitSeconds)
        condition.lock()
        defer { condition.unlock() }
        while (pending.count >= capacity || pendingBytes >= byteCapacity) && !closed {
            guard condition.wait(until: deadline) else { break }
        }
        guard !closed, pending.count < capacity, pendingBytes < byteCapacity else { return false }
        pending.append(contentsOf: packed)
        pendingBytes += bytes
        queuedTotal += packed.count
        condition.broadcast()
        return true
    }

    /// Queues a record only if there is room now: for the daemon's own diagnostics, which must never block.
    func offer(_ record: LogRecord) -> Bool {
        let packed = PackedRecords(CollectionOfOne(record))
        condition.lock()
        defer { condition.unlock() }
        guard !closed, pending.count < capacity, pendingBytes < byteCapacity else { return false }
        pending.append(contentsOf: packed)
        pendingBytes += record.eventMessage.utf8.count + 256
        queuedTotal += 1
        condition.broadcast()
        return true
    }

    /// Queues a waiter called once every record queued before it is committed (an OTLP request's
    /// HTTP 200 waits on it). Returns false once the queue is closed.
    @discardableResult
    func pushSync(reply: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return false }
        syncs.append(PendingSync(position: queuedTotal, reply: reply))
        condition.broadcast()
        return true
    }

    /// Takes every queued record and sync, waiting up to `waitSeconds` for one (nil: until one
    /// comes). Returns nil when the queue is closed and empty.
    func take(waitSeconds: Double?) -> Drain? {
        condition.lock()
        defer { condition.unlock() }
        if pending.isEmpty && syncs.isEmpty && !closed {
            if let waitSeconds {
                _ = condition.wait(until: Date(timeIntervalSinceNow: waitSeconds))
            } else {
                condition.wait()
            }
        }
        if pending.isEmpty && syncs.isEmpty { return closed ? nil : Drain(records: PackedRecords(), syncs: []) }
        var records = spare
        swap(&records, &pending)
        spare = PackedRecords()
        pendingBytes = 0
        let drain = Drain(records: records, syncs: syncs)
        syncs = []
        condition.broadcast()
        return drain
    }

    /// Gives back a committed buffer so its storage is reused.
    func recycle(_ records: inout PackedRecords) {
        records.removeAll(keepingCapacity: true)
        condition.lock()
        if spare.capacity < records.capacity { swap(&spare, &records) }
        condition.unlock()
    }

    /// Stops accepting; the writer drains what is left, then `take` returns nil.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
