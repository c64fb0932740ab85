import DiagModel
import DiagStore
import Foundation
import Synchronization

/// Hands the log store's snapshot chunks from the thread that pins and copies them to the thread
/// that archives them, one at a time as each is ready, so copying the next chunk overlaps
/// compressing this one. Not bounded: the copy holds the store's chunks pinned, so it should end
/// as soon as it can rather than wait for the compressor; what waits is a handle per chunk.
final class SnapshotFeed: Sendable {
    /// A chunk's connections pass from the copying thread to the one that takes the chunk (or to
    /// the summaries, once the copy has finished), boxed in `Transferred`: the copying thread no
    /// longer touches them once pushed.
    private struct State: Sendable {
        var ready: [Transferred<SnapshotChunk>] = []
        var summarySources: [Transferred<SummarySource>] = []
        var outcome: Result<StoreInfo?, any Error>?
        var cancelled = false
        var waiting = ParkedThreads()
    }

    private let state = Mutex(State())

    /// Runs `copy` on a thread of its own; `copy` passes each chunk to its argument, which throws
    /// once the feed is cancelled, and returns the `Info.json` still to complete, if any.
    func start(_ copy: @escaping @Sendable (_ chunkReady: (SnapshotChunk) throws -> Void) throws -> StoreInfo?) {
        let thread = Thread { [self] in
            let result = Result { try copy(push) }
            state.withLock { state in
                state.outcome = result
                state.waiting.wakeAll()
            }
        }
        thread.start()
    }

    /// Runs `copy` on the calling thread, to the end, before anything is taken from the feed.
    func run(_ copy: (_ chunkReady: (SnapshotChunk) throws -> Void) throws -> StoreInfo?) {
        let result = Result { try copy(push) }
        state.withLock { $0.outcome = result }
    }

    /// The next chunk ready, nil once every chunk was taken; rethrows the copy's error.
    func next() throws -> SnapshotChunk? {
        let next = state.wait(on: \.waiting) { state -> Result<Transferred<SnapshotChunk>?, any Error>? in
            if !state.ready.isEmpty { return .success(state.ready.removeFirst()) }
            guard let outcome = state.outcome else { return nil }
            return outcome.map { _ in nil }
        }
        return try next!.get()?.value
    }

    /// True once the copy has completed without error (chunks may still wait to be taken).
    var copyFinished: Bool {
        state.withLock { state in
            if case .success = state.outcome { return true }
            return false
        }
    }

    /// The store's `Info.json` for the summaries to complete, once the copy has finished.
    var storeInfoToComplete: StoreInfo? {
        state.withLock { state in
            if case .success(let info) = state.outcome { return info }
            return nil
        }
    }

    /// Where the summaries read every chunk, in the order pushed; complete once `copyFinished`.
    var summaryInputs: [SummarySource] {
        state.withLock { $0.summarySources }.map(\.value)
    }

    /// Stops the copy at its next chunk and waits until it has stopped, so its files can be removed.
    func cancelAndWait() {
        state.withLock { $0.cancelled = true }
        _ = state.wait(on: \.waiting) { state in state.outcome.map { _ in true } }
    }

    private func push(_ chunk: SnapshotChunk) throws {
        // The copying thread lets go of the chunk once pushed. A sealed chunk's connection goes
        // both to the archiving thread (which archives the chunk's file, not through it) and,
        // once the copy has finished, to the summaries, its only user.
        let summarySource = Transferred(handingOver: chunk.summarySource)
        let chunk = Transferred(handingOver: chunk)
        try state.withLock { state in
            if state.cancelled { throw BundleError.failure("the collection was stopped") }
            state.ready.append(chunk)
            state.summarySources.append(summarySource)
            state.waiting.wakeAll()
        }
    }
}
