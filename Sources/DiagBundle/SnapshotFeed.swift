import Foundation

/// Hands the log store's snapshot chunks from the thread that copies them to the thread that
/// archives them, one at a time as each copy is complete, so copying the next chunk overlaps
/// compressing this one.
final class SnapshotFeed: @unchecked Sendable {
    // Safe: every field is read and written under `condition`.
    private let condition = NSCondition()
    private var ready: [String] = []
    private var outcome: Result<Void, any Error>?
    private var cancelled = false

    /// Runs `copy` on a thread of its own; `copy` passes each chunk's bundle path to its argument,
    /// which throws once the feed is cancelled.
    func start(_ copy: @escaping @Sendable (_ chunkReady: (String) throws -> Void) throws -> Void) {
        let thread = Thread { [self] in
            let result = Result { try copy(push) }
            condition.withLock {
                outcome = result
                condition.broadcast()
            }
        }
        thread.start()
    }

    /// Runs `copy` on the calling thread, to the end, before anything is taken from the feed.
    func run(_ copy: (_ chunkReady: (String) throws -> Void) throws -> Void) {
        let result = Result { try copy(push) }
        condition.withLock { outcome = result }
    }

    /// The next chunk ready, nil once every chunk was taken; rethrows the copy's error.
    func next() throws -> String? {
        try condition.withLock {
            while ready.isEmpty && outcome == nil { condition.wait() }
            if !ready.isEmpty { return ready.removeFirst() }
            try outcome!.get()
            return nil
        }
    }

    /// True once the copy has completed without error (chunks may still wait to be taken).
    var copyFinished: Bool {
        condition.withLock {
            if case .success = outcome { return true }
            return false
        }
    }

    /// Stops the copy at its next chunk and waits until it has stopped, so its files can be removed.
    func cancelAndWait() {
        condition.withLock {
            cancelled = true
            while outcome == nil { condition.wait() }
        }
    }

    private func push(_ chunk: String) throws {
        try condition.withLock {
            if cancelled { throw BundleError.failure("the collection was stopped") }
            ready.append(chunk)
            condition.broadcast()
        }
    }
}
