import DiagStore
import Foundation

/// Hands the log store's snapshot chunks from the thread that pins and copies them to the thread
/// that archives them, one at a time as each is ready, so copying the next chunk overlaps
/// compressing this one.
final class SnapshotFeed: @unchecked Sendable {
    // Safe: every field is read and written under `condition`. A chunk's connections pass from
    // the copying thread to the one that takes the chunk (or to the summaries, once the copy has
    // finished) through that lock, and the copying thread no longer touches them once pushed.
    private let condition = NSCondition()
    private var ready: [SnapshotChunk] = []
    private var summarySources: [SummarySource] = []
    private var outcome: Result<StoreInfo?, any Error>?
    private var cancelled = false

    /// Runs `copy` on a thread of its own; `copy` passes each chunk to its argument, which throws
    /// once the feed is cancelled, and returns the `Info.json` still to complete, if any.
    func start(_ copy: @escaping @Sendable (_ chunkReady: (SnapshotChunk) throws -> Void) throws -> StoreInfo?) {
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
    func run(_ copy: (_ chunkReady: (SnapshotChunk) throws -> Void) throws -> StoreInfo?) {
        let result = Result { try copy(push) }
        condition.withLock { outcome = result }
    }

    /// The next chunk ready, nil once every chunk was taken; rethrows the copy's error.
    func next() throws -> SnapshotChunk? {
        try condition.withLock {
            while ready.isEmpty && outcome == nil { condition.wait() }
            if !ready.isEmpty { return ready.removeFirst() }
            _ = try outcome!.get()
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

    /// The store's `Info.json` for the summaries to complete, once the copy has finished.
    var storeInfoToComplete: StoreInfo? {
        condition.withLock {
            if case .success(let info) = outcome { return info }
            return nil
        }
    }

    /// Where the summaries read every chunk, in the order pushed; complete once `copyFinished`.
    var summaryInputs: [SummarySource] {
        condition.withLock { summarySources }
    }

    /// Stops the copy at its next chunk and waits until it has stopped, so its files can be removed.
    func cancelAndWait() {
        condition.withLock {
            cancelled = true
            while outcome == nil { condition.wait() }
        }
    }

    private func push(_ chunk: SnapshotChunk) throws {
        try condition.withLock {
            if cancelled { throw BundleError.failure("the collection was stopped") }
            ready.append(chunk)
            summarySources.append(chunk.summarySource)
            condition.broadcast()
        }
    }
}
