import DiagModel
import DiagStore
import Foundation
import Glibc

/// Reads the store ahead of the deliveries, on a thread of its own: the next batches are read
/// (as RFC 5424 frames straight from the rows, for a sink that takes them) while the previous
/// one is sent.
final class ForwardReadAhead: @unchecked Sendable {
    // Safe: `follower` is used by the reading thread only, once `start` is called; a batch (its
    // frames) passes to the delivering thread through `batches`, and the reading thread no
    // longer touches it.
    private let follower: StoreFollower
    /// The batches read and not yet taken; cancelled with the forward, which wakes both sides.
    private let batches: BoundedChannel<Transferred<StoreFollower.Batch>>
    private let frames: RFC5424Encoder?
    private let batchSize: Int
    private let start: ForwardPosition
    private let chunks: @Sendable () -> [ChunkInfo]
    private let cancellation: ForwardCancellation
    private let waitForRecords: @Sendable () -> Void
    private let failed: @Sendable (any Error) -> Void

    init(
        follower: StoreFollower, after start: ForwardPosition, batchSize: Int, depth: Int = 2,
        frames: RFC5424Encoder?,
        chunks: @escaping @Sendable () -> [ChunkInfo], cancellation: ForwardCancellation,
        waitForRecords: @escaping @Sendable () -> Void, failed: @escaping @Sendable (any Error) -> Void
    ) {
        self.follower = follower
        self.frames = frames
        self.start = start
        self.batchSize = batchSize
        batches = BoundedChannel(capacity: max(1, depth))
        self.chunks = chunks
        self.cancellation = cancellation
        self.waitForRecords = waitForRecords
        self.failed = failed
    }

    func startReading() {
        cancellation.whenCancelled { [batches] in batches.cancel() }
        let thread = Thread { [self] in
            ThreadName.setCurrent("diagd-fwd-read")
            ForwardThreadPriority.lower()
            read()
        }
        thread.start()
    }


    /// The next batch, in order; nil once the forward is cancelled. Calls `idle` about once a
    /// second while none comes.
    func next(whileWaiting idle: () -> Void = {}) -> StoreFollower.Batch? {
        while true {
            // The channel is never finished, nor failed: it ends only when cancelled.
            switch try? batches.receive(until: .now() + .seconds(1)) {
            case .element(let batch): return batch.value
            case .timedOut: idle()
            case .ended, nil: return nil
            }
        }
    }

    /// The first batch read after a wait: small, so that the receiver gets its first records
    /// while the next are read, instead of after a whole batch (a backlog's first bytes go out
    /// sooner). Each full batch doubles the next one, up to `batchSize`.
    static let firstBatchSize = 100

    private func read() {
        var position = start
        var limit = min(Self.firstBatchSize, batchSize)
        while !cancellation.isCancelled {
            let batch: StoreFollower.Batch
            do {
                batch = try follower.read(after: position, limit: limit, chunks: chunks(), frames: frames)
            } catch {
                failed(error)
                continue
            }
            let moved = batch.end != position || !batch.lost.isEmpty || !batch.undecodable.isEmpty
            if !moved {
                limit = min(Self.firstBatchSize, batchSize)
                waitForRecords()
                continue
            }
            if batch.count >= limit { limit = min(limit * 2, batchSize) }
            position = batch.end
            do {
                try batches.send(Transferred(batch))
            } catch {
                return  // cancelled: the forward stops
            }
        }
    }
}

/// Forwarding is background work: its threads run at a lower priority (nice 5) than diagd's
/// ingestion, so that a burst to forward never delays the clients and the writer, nor another
/// program on the machine (a local receiver) that has work to do.
public enum ForwardThreadPriority {
    /// Lowers the calling thread's priority: on Linux the nice value is a thread's, and
    /// `setpriority(PRIO_PROCESS, 0, …)` sets the calling thread's.
    public static func lower() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)
    }
}
