import DiagModel
import DiagProtocol
import Foundation
import Synchronization

/// One `diag stream` client's queue of live records. Bounded: when the client reads too slowly,
/// records are dropped and counted, and the client is told how many (ingest never waits for it).
final class StreamSubscriber: @unchecked Sendable {
    // Safe: `pending`, `dropped` and `closed` are touched only with `condition` locked.
    let request: StreamRequest
    let filter: (@Sendable (LogRecord) -> Bool)?
    let capacity: Int
    private let condition = NSCondition()
    private var pending: [LogRecord] = []
    private var dropped = 0
    private var closed = false

    init(request: StreamRequest, filter: (@Sendable (LogRecord) -> Bool)?, capacity: Int = 10_000) {
        self.request = request
        self.filter = filter
        self.capacity = capacity
    }

    /// Adds the records this subscriber wants; returns how many were dropped for lack of room.
    func offer(_ records: [LogRecord]) -> Int {
        let wanted = records.filter { request.admits($0) && (filter?($0) ?? true) }
        guard !wanted.isEmpty else { return 0 }
        condition.lock()
        defer { condition.unlock() }
        let room = max(0, capacity - pending.count)
        pending.append(contentsOf: wanted.prefix(room))
        let lost = wanted.count - min(room, wanted.count)
        dropped += lost
        condition.signal()
        return lost
    }

    /// Waits up to `seconds` for records; returns them with the count dropped since the last call.
    func next(waitSeconds seconds: Double) -> (records: [LogRecord], dropped: Int, closed: Bool) {
        condition.lock()
        defer { condition.unlock() }
        if pending.isEmpty && dropped == 0 && !closed {
            _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
        }
        let result = (pending, dropped, closed)
        pending = []
        dropped = 0
        return result
    }

    func close() {
        condition.lock()
        closed = true
        condition.signal()
        condition.unlock()
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
