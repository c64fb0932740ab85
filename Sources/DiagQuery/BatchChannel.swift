import Foundation

/// A bounded hand-over of batches from one producing thread to its consumer: at most `capacity`
/// batches (two unless said otherwise) wait, so memory stays flat whatever the source's size.
final class BatchChannel<Item>: @unchecked Sendable {
    // Safe: every field is read and written with `condition` locked.
    private let capacity: Int

    init(capacity: Int = 2) {
        self.capacity = capacity
    }

    private let condition = NSCondition()
    private var queue: [[Item]] = []
    private var opened = false
    private var finished = false
    private var cancelled = false
    private var failure: (any Error)?

    /// Reader side: the file is open (or could not be opened: `failure`).
    func open(failure: (any Error)?) {
        condition.withLock {
            opened = true
            if let failure {
                self.failure = failure
                finished = true
            }
            condition.broadcast()
        }
    }

    /// Query side: waits until the reader has opened the file, and throws why it could not.
    func waitUntilOpened() throws {
        try condition.withLock {
            while !opened { condition.wait() }
            if let failure, queue.isEmpty, finished { throw failure }
        }
    }

    /// Reader side: hands over the batch (leaving it empty); waits while the queue is full.
    func put(_ batch: inout [Item]) throws {
        guard !batch.isEmpty else { return }
        try condition.withLock {
            while queue.count >= capacity, !cancelled { condition.wait() }
            if cancelled { throw BatchChannelCancelled() }
            queue.append(batch)
            condition.broadcast()
        }
        batch.removeAll(keepingCapacity: true)
    }

    func finish(failure: (any Error)?) {
        condition.withLock {
            finished = true
            self.failure = failure
            condition.broadcast()
        }
    }

    /// Query side: the next batch, nil at the end, or the reader's failure.
    func take() throws -> [Item]? {
        try condition.withLock {
            while queue.isEmpty, !finished { condition.wait() }
            if !queue.isEmpty {
                let batch = queue.removeFirst()
                condition.broadcast()
                return batch
            }
            if let failure { throw failure }
            return nil
        }
    }

    /// Query side: the reader stops at its next hand-over (the query ended early).
    func cancel() {
        condition.withLock {
            cancelled = true
            condition.broadcast()
        }
    }
}

/// Thrown to a producer whose consumer went away.
struct BatchChannelCancelled: Error {}
