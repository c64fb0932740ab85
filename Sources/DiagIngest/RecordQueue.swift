import DiagModel
import Dispatch
import Foundation
import Synchronization

/// The bounded hand-off from the connection threads to the single writer thread.
///
/// Connection threads append their records, packed as the bind values of their rows
/// (`PackedRecords`), to one contiguous buffer, so the writer takes a whole transaction's worth
/// by swapping buffers, and the packing and copying happen on the connection threads rather
/// than on the one writer. Capacity counts records: a full queue blocks `push`,
/// so the connection stops reading and the client's writes block in turn (back-pressure)
/// instead of the daemon's memory growing.
final class RecordQueue: Sendable {
    /// A `sync` waiting for the records before it: `position` counts every record ever queued;
    /// `reply` is called by the writer once they are committed.
    struct PendingSync: Sendable {
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

    private struct State: Sendable {
        var pending = PackedRecords()
        var pendingBytes = 0
        /// An emptied buffer handed back by the writer, swapped in to keep its capacity.
        var spare = PackedRecords()
        var syncs: [PendingSync] = []
        var queuedTotal = 0
        var closed = false
        /// Connection threads waiting for room.
        var senders = ParkedThreads()
        /// The writer waiting for records or syncs.
        var writer = ParkedThreads()

        func isFull(capacity: Int, byteCapacity: Int) -> Bool {
            pending.count >= capacity || pendingBytes >= byteCapacity
        }

        mutating func append(_ records: PackedRecords, bytes: Int) {
            queuedTotal += records.count
            pendingBytes += bytes
            if pending.isEmpty && pending.capacity < spare.capacity { swap(&pending, &spare) }
            pending.append(contentsOf: records)
            writer.wakeAll()
        }
    }

    private let state = Mutex(State())

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
        let (capacity, byteCapacity) = (capacity, byteCapacity)
        return state.wait(on: \.senders) { state -> Bool? in
            if state.closed { return false }
            if state.isFull(capacity: capacity, byteCapacity: byteCapacity) { return nil }
            state.append(records, bytes: bytes)
            records.removeAll(keepingCapacity: true)
            return true
        } ?? false
    }

    /// Queues records if there is room within `waitSeconds`: for syslog datagrams, whose reader
    /// must not stall forever behind a stuck writer. Returns false (nothing queued) when still
    /// full then, or closed.
    func offer(_ records: [LogRecord], bytes: Int, waitSeconds: Double) -> Bool {
        offer(PackedRecords(records), bytes: bytes, waitSeconds: waitSeconds)
    }

    func offer(_ packed: PackedRecords, bytes: Int, waitSeconds: Double) -> Bool {
        guard !packed.isEmpty else { return true }
        let (capacity, byteCapacity) = (capacity, byteCapacity)
        return state.wait(on: \.senders, until: .now() + waitSeconds) { state -> Bool? in
            if state.closed { return false }
            if state.isFull(capacity: capacity, byteCapacity: byteCapacity) { return nil }
            state.append(packed, bytes: bytes)
            return true
        } ?? false
    }

    /// Queues a record only if there is room now: for the daemon's own diagnostics, which must never block.
    func offer(_ record: LogRecord) -> Bool {
        let packed = PackedRecords(CollectionOfOne(record))
        let bytes = record.eventMessage.utf8.count + 256
        let (capacity, byteCapacity) = (capacity, byteCapacity)
        return state.withLock { state in
            guard !state.closed, !state.isFull(capacity: capacity, byteCapacity: byteCapacity) else { return false }
            state.append(packed, bytes: bytes)
            return true
        }
    }

    /// Queues a waiter called once every record queued before it is committed (an OTLP request's
    /// HTTP 200 waits on it). Returns false once the queue is closed.
    @discardableResult
    func pushSync(reply: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.syncs.append(PendingSync(position: state.queuedTotal, reply: reply))
            state.writer.wakeAll()
            return true
        }
    }

    /// Takes every queued record and sync, waiting up to `waitSeconds` for one (nil: until one
    /// comes); an empty drain when none came in time. Returns nil when the queue is closed and empty.
    func take(waitSeconds: Double?) -> Drain? {
        let deadline: DispatchTime = waitSeconds.map { .now() + $0 } ?? .distantFuture
        let taken = state.wait(on: \.writer, until: deadline) { state -> TakeResult? in
            if state.pending.isEmpty && state.syncs.isEmpty { return state.closed ? .closed : nil }
            var records = state.spare
            swap(&records, &state.pending)
            state.spare = PackedRecords()
            state.pendingBytes = 0
            let syncs = state.syncs
            state.syncs = []
            state.senders.wakeAll()
            return .drain(records, syncs)
        }
        switch taken {
        case .drain(let records, let syncs)?: return Drain(records: records, syncs: syncs)
        case .closed?: return nil
        case nil: return Drain(records: PackedRecords(), syncs: [])
        }
    }

    private enum TakeResult: Sendable {
        case drain(PackedRecords, [PendingSync])
        case closed
    }

    /// Gives back a committed buffer so its storage is reused.
    func recycle(_ records: inout PackedRecords) {
        records.removeAll(keepingCapacity: true)
        state.withLock { state in
            if state.spare.capacity < records.capacity { swap(&state.spare, &records) }
        }
    }

    /// Stops accepting; the writer drains what is left, then `take` returns nil.
    func close() {
        state.withLock { state in
            state.closed = true
            state.senders.wakeAll()
            state.writer.wakeAll()
        }
    }
}
