import DiagModel
import Foundation
import Synchronization

/// A listener that lives outside this target (the OTLP/HTTP receiver, in DiagOTLP, which only
/// diagd links): made from a `RecordIntake` when the server is made, so that a taken port fails
/// the start; started with the other listeners; stopped before the writer drains the queue.
public protocol IngestListener: Sendable {
    /// What the daemon's first log line says it listens on.
    var summary: String { get }
    func start()
    /// Stops taking requests and returns once the requests in progress are answered.
    func stop()
}

/// Makes a listener for `DaemonOptions.listeners`; an error fails diagd's start with its text.
public typealias IngestListenerFactory = @Sendable (RecordIntake) throws -> any IngestListener

/// How a listener outside this target hands records to diagd: the same level routing as diagd's
/// own socket (store, ring, live streams), the same bounded queue, and an answer once the
/// records are committed, as a `sync` on the socket gets.
public final class RecordIntake: Sendable {
    let context: IngestContext
    let stopRequest: StopRequest

    init(context: IngestContext, stopRequest: StopRequest) {
        self.context = context
        self.stopRequest = stopRequest
    }

    /// What became of a submitted batch.
    public enum Outcome: Sendable, Equatable {
        /// Committed to the store (`stored`), kept in the memory ring only (`ringOnly`, by the level
        /// settings, as Debug is by default), or dropped by the level settings (`dropped`).
        case durable(stored: Int, ringOnly: Int, dropped: Int)
        /// The store refuses writes (a full disk, most often); nothing of the batch was queued.
        case storeRefusing(String)
        /// The writer's queue stayed full for the wait given; nothing of the batch was queued.
        case queueFull
        /// Queued, but not committed within the wait given: it may still be committed.
        case notCommittedYet
        /// diagd is stopping; nothing of the batch was queued.
        case stopping
    }

    /// Routes `records` (each with the size it had on the wire, which bounds the queue's memory),
    /// waits up to `queueWait` seconds for room in the queue and up to `commitWait` for the commit.
    public func submit(_ records: [LogRecord], sizes: [Int], queueWait: Double, commitWait: Double) -> Outcome {
        guard !stopRequest.isRequested else { return .stopping }
        let receiptTime = DaemonLog.now()
        var batch = LineBatch()
        batch.begin(
            receiptTime: receiptTime, storeFailure: context.writer.storeFailure, levels: context.levels.snapshot,
            streaming: !context.hub.isEmpty)
        for (index, var record) in records.enumerated() {
            record.receiptTime = receiptTime
            batch.add(record, size: index < sizes.count ? sizes[index] : 256)
        }
        if let failure = batch.storeFailure, !batch.persisted.isEmpty {
            context.counters.add(context.counters.refusedWhileStoreFailing, batch.persisted.count)
            return .storeRefusing(failure)
        }
        let counters = context.counters
        let total = batch.persisted.count + batch.ringOnly.count + batch.dropped
        guard context.queue.offer(batch.persisted, bytes: batch.persistedBytes, waitSeconds: queueWait) else {
            return stopRequest.isRequested ? .stopping : .queueFull
        }
        counters.add(counters.received, total)
        counters.add(counters.otlpReceived, total)
        counters.add(counters.ringOnly, batch.ringOnly.count)
        counters.add(counters.droppedByLevel, batch.dropped)
        if !batch.live.isEmpty { counters.add(counters.streamDrops, context.hub.publish(batch.live)) }
        context.ring.append(batch.ringOnly, sizes: batch.ringOnlySizes)
        let outcome = Outcome.durable(stored: batch.persisted.count, ringOnly: batch.ringOnly.count, dropped: batch.dropped)
        guard !batch.persisted.isEmpty else { return outcome }
        let committed = DispatchSemaphore(value: 0)
        guard context.queue.pushSync(reply: { committed.signal() }) else { return .stopping }
        guard committed.wait(timeout: .now() + commitWait) == .success else { return .notCommittedYet }
        // The writer answers the syncs of a batch it gave up on at exit: say so rather than 200.
        if let failure = context.writer.storeFailure { return .storeRefusing(failure) }
        return outcome
    }

    /// Counts a request refused as malformed or too large.
    public func countRefusedRequest() {
        context.counters.add(context.counters.otlpRefused)
    }

    /// A record in diagd's own log (and so in the store, under process `diagd`).
    public func log(_ type: MessageType, _ message: String, category: String) {
        context.log.log(type, message, category: category)
    }

    /// Whether diagd has been asked to stop.
    public var isStopping: Bool { stopRequest.isRequested }
}
