import DiagModel
import Foundation
import Synchronization

/// The records of a query read on a thread of their own and handed over in batches, so that a
/// command whose own work per record is heavy (pairing signposts) overlaps it with reading and
/// decoding on the second core. At most `batches` batches wait: memory stays flat. The order is
/// the query's.
///
/// Not thread-safe: read from one task. The reading thread owns the `QueryResults` until it ends.
public final class ReadAheadRecords {
    private let channel: BatchChannel<LogRecord>
    private let state: ReadAheadState
    private var batch: [LogRecord] = []
    private var position = 0

    public init(_ results: QueryResults, batchSize: Int = 1_024, batches: Int = 4) {
        let channel = BatchChannel<LogRecord>(capacity: max(1, batches))
        let state = ReadAheadState(results)
        self.channel = channel
        self.state = state
        let size = max(1, batchSize)
        Thread.detachNewThread {
            defer { state.ended.signal() }
            var batch: [LogRecord] = []
            batch.reserveCapacity(size)
            do {
                while let record = try state.results.next() {
                    batch.append(record)
                    if batch.count == size { try channel.put(&batch) }
                }
                try channel.put(&batch)
                state.setRefused(state.results.refusedCount)
                channel.finish(failure: nil)
            } catch is BatchChannelCancelled {
                // The reader went away: nothing more to hand over.
            } catch {
                state.setRefused(state.results.refusedCount)
                channel.finish(failure: error)
            }
        }
    }

    /// The next record in the query's order; nil at the end; the query's error where it failed.
    public func next() throws -> LogRecord? {
        if position == batch.count {
            guard let next = try channel.take() else { return nil }
            batch = next
            position = 0
        }
        defer { position += 1 }
        return batch[position]
    }

    /// How many lines of plain files were refused: complete once `next()` has returned nil or thrown.
    public var refusedCount: Int { state.refused }

    deinit {
        channel.cancel()
        state.ended.wait()
    }
}

@available(*, unavailable)
extension ReadAheadRecords: Sendable {}

/// What the reading thread shares with its reader: the results it alone reads, and the count of
/// refused lines it leaves behind.
private final class ReadAheadState: @unchecked Sendable {
    // Safe: `results` is used by the reading thread only, from its start to `ended`; `refused` is
    // a `Mutex`.
    let results: QueryResults
    let ended = DispatchSemaphore(value: 0)
    private let refusedLines = Mutex(0)

    init(_ results: QueryResults) { self.results = results }

    var refused: Int { refusedLines.withLock { $0 } }
    func setRefused(_ count: Int) { refusedLines.withLock { $0 = count } }
}
