import DiagModel
import DiagProtocol
import Foundation
import Synchronization

/// One `diag stream` client's queue of live records. Bounded: when the client reads too slowly,
/// records are dropped and counted, and the client is told how many (ingest never waits for it).
final class StreamSubscriber: Sendable {
    private struct State {
        var pending: [LogRecord] = []
        var dropped = 0
        var closed = false
    }

    let request: StreamRequest
    let filter: (@Sendable (LogRecord) -> Bool)?
    let capacity: Int
    /// Called when records (or the close) arrive while none were waiting: the connection then
    /// gets a turn to send them. Never called with the lock held.
    private let onAvailable: @Sendable () -> Void
    private let state = Mutex(State())

    init(request: StreamRequest, filter: (@Sendable (LogRecord) -> Bool)?, capacity: Int = 10_000, onAvailable: @escaping @Sendable () -> Void) {
        self.request = request
        self.filter = filter
        self.capacity = capacity
        self.onAvailable = onAvailable
    }

    /// Adds the records this subscriber wants; returns how many were dropped for lack of room.
    func offer(_ records: [LogRecord]) -> Int {
        let wanted = records.filter { request.admits($0) && (filter?($0) ?? true) }
        guard !wanted.isEmpty else { return 0 }
        let capacity = capacity
        let (wasIdle, lost) = state.withLock { state in
            let wasIdle = state.pending.isEmpty && state.dropped == 0
            let room = max(0, capacity - state.pending.count)
            state.pending.append(contentsOf: wanted.prefix(room))
            let lost = wanted.count - min(room, wanted.count)
            state.dropped += lost
            return (wasIdle, lost)
        }
        if wasIdle { onAvailable() }
        return lost
    }

    /// The oldest records waiting (at most `limit`), the count dropped since the last call, and
    /// whether the hub closed (said only once nothing waits).
    func take(upTo limit: Int) -> (records: [LogRecord], dropped: Int, closed: Bool) {
        state.withLock { state in
            let records = Array(state.pending.prefix(limit))
            state.pending.removeFirst(records.count)
            let result = (records, state.dropped, state.closed && state.pending.isEmpty)
            state.dropped = 0
            return result
        }
    }

    func close() {
        state.withLock { $0.closed = true }
        onAvailable()
    }
}

/// The live subscribers; every accepted record is offered to each of them.
final class StreamHub: Sendable {
    private let subscribers = Mutex<[ObjectIdentifier: StreamSubscriber]>([:])
    private let subscriberCount = Atomic<Int>(0)

    var isEmpty: Bool { subscriberCount.load(ordering: .relaxed) == 0 }

    func add(_ subscriber: StreamSubscriber) {
        subscribers.withLock { $0[ObjectIdentifier(subscriber)] = subscriber }
        subscriberCount.wrappingAdd(1, ordering: .relaxed)
    }

    func remove(_ subscriber: StreamSubscriber) {
        if subscribers.withLock({ $0.removeValue(forKey: ObjectIdentifier(subscriber)) }) != nil {
            subscriberCount.wrappingSubtract(1, ordering: .relaxed)
        }
    }

    /// Offers records to every subscriber; returns the total dropped.
    func publish(_ records: [LogRecord]) -> Int {
        guard !isEmpty, !records.isEmpty else { return 0 }
        let current = subscribers.withLock { Array($0.values) }
        return current.reduce(0) { $0 + $1.offer(records) }
    }

    func closeAll() {
        for subscriber in subscribers.withLock({ Array($0.values) }) { subscriber.close() }
    }
}
