import DiagModel
import Synchronization

/// The in-memory ring of records that were enabled but not persisted (Debug by default):
/// the newest `capacity` of them, for `diag stream` and `diag collect`.
final class RecordRing: Sendable {
    private struct Storage {
        var slots: [LogRecord?]
        var next = 0
        var count = 0
    }

    let capacity: Int
    private let storage: Mutex<Storage>

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        storage = Mutex(Storage(slots: Array(repeating: nil, count: max(1, capacity))))
    }

    func append(_ records: [LogRecord]) {
        guard !records.isEmpty else { return }
        storage.withLock { ring in
            for record in records.suffix(capacity) {
                ring.slots[ring.next] = record
                ring.next = (ring.next + 1) % capacity
                ring.count = min(ring.count + 1, capacity)
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
