import DiagModel
import Synchronization

/// A bounded hand-over of batches from one producing thread to its consumer: at most `capacity`
/// batches (two unless said otherwise) wait, so memory stays flat whatever the source's size.
/// A `BoundedChannel` of batches, plus the moment the producer has opened its source (or could
/// not), which a reader's constructor waits for to throw an unreadable file at once.
final class BatchChannel<Item: Sendable>: Sendable {
    private let batches: BoundedChannel<[Item]>
    private let opening = Mutex(OpeningState())

    init(capacity: Int = 2) {
        batches = BoundedChannel(capacity: max(1, capacity))
    }

    /// Reader side: the file is open (or could not be opened: `failure`).
    func open(failure: (any Error)?) {
        opening.withLock { state in
            state.opened = true
            state.failure = failure
            state.waiting.wakeAll()
        }
        if let failure { batches.finish(failure: failure) }
    }

    /// Query side: waits until the reader has opened the file, and throws why it could not.
    func waitUntilOpened() throws {
        let failure = opening.wait(on: \.waiting) { state -> (any Error)?? in
            state.opened ? .some(state.failure) : nil
        }
        if case .some(.some(let failure)) = failure { throw failure }
    }

    /// Reader side: hands over the batch (leaving it empty); waits while the queue is full.
    func put(_ batch: inout [Item]) throws {
        guard !batch.isEmpty else { return }
        do {
            try batches.send(batch)
        } catch {
            throw BatchChannelCancelled()
        }
        batch.removeAll(keepingCapacity: true)
    }

    func finish(failure: (any Error)?) {
        batches.finish(failure: failure)
    }

    /// Batches waiting for the query side.
    var count: Int { batches.count }

    /// Query side: the next batch, nil at the end, or the reader's failure.
    func take() throws -> [Item]? {
        try batches.receive()
    }

    /// Query side: the reader stops at its next hand-over (the query ended early).
    func cancel() {
        batches.cancel()
    }
}

private struct OpeningState: Sendable {
    var opened = false
    var failure: (any Error)?
    var waiting = ParkedThreads()
}

/// Thrown to a producer whose consumer went away.
struct BatchChannelCancelled: Error {}
