import DiagModel
import Synchronization

/// The in-memory ring of records that were enabled but not persisted (Debug by default):
/// the newest of them, at most `capacity` records and about `byteCapacity` bytes of lines,
/// for `diag stream` and `diag collect`.
final class RecordRing: Sendable {
    private struct Storage {
        var slots: [LogRecord?]
        var sizes: [Int]
        var next = 0
        var count = 0
        var bytes = 0

        mutating func dropOldest(capacity: Int) {
            let oldest = (next - count + capacity) % capacity
            bytes -= sizes[oldest]
            slots[oldest] = nil
            count -= 1
        }
    }

    let capacity: Int
    let byteCapacity: Int
    private let storage: Mutex<Storage>

    init(capacity: Int, byteCapacity: Int = 16 << 20) {
        self.capacity = max(1, capacity)
        self.byteCapacity = byteCapacity
        storage = Mutex(Storage(slots: Array(repeating: nil, count: max(1, capacity)), sizes: Array(repeating: 0, count: max(1, capacity))))
    }

    /// Adds records (with the sizes of their lines), evicting the oldest past either bound.
    func append(_ records: [LogRecord], sizes: [Int]) {
        guard !records.isEmpty else { return }
        storage.withLock { ring in
            for (record, size) in zip(records, sizes) {
                if ring.count == capacity { ring.dropOldest(capacity: capacity) }
                ring.slots[ring.next] = record
                ring.sizes[ring.next] = size
                ring.bytes += size
                ring.next = (ring.next + 1) % capacity
                ring.count += 1
                while ring.bytes > byteCapacity && ring.count > 1 { ring.dropOldest(capacity: capacity) }
            }
        }
    }

    /// The records held, oldest first.
    func contents() -> [LogRecord] {
        storage.withLock { ring in
            let start = (ring.next - ring.count + capacity) % capacity
            return (0..<ring.count).compactMap { ring.slots[(start + $0) % capacity] }
        }
    }
}
