import DiagModel
import DiagStore
import Foundation
import Synchronization

/// One forward: follows the store from its cursor and hands batches to its sink, on a thread of
/// its own, so that the store's writer never waits for a receiver.
///
/// A batch is retried until the receiver takes it (back-off from 0.5 s to 30 s, or the
/// receiver's `Retry-After`); the cursor moves past it only then, and is saved in the store, so
/// a receiver down or slow loses nothing and a restart of diagd resumes where it stopped
/// (at-least-once: a batch may arrive twice around a failure). A batch the receiver refuses for
/// good is logged, counted and skipped. Chunks expired before the forward reached them are
/// reported as lost; they never hold the store back.
public final class Forwarder: Sendable {
    public let destination: ForwardDestination
    public let cursorFile: URL
    public let batchSize: Int
    public let statistics = ForwardStatistics()
    /// Gives up waits at once when diagd stops.
    public let cancellation: ForwardCancellation
    private let work: Mutex<ForwarderWork>
    private let storeDirectory: URL
    private let storeInfo: @Sendable () -> StoreInfo
    private let report: @Sendable (MessageType, String) -> Void
    /// Wake-ups from `wake` not yet seen by `waitForRecords`, and the forward's thread parked there
    /// or in a back-off.
    private let signal = Mutex(WakeSignal())
    private let maximumBackOff: Double

    /// `sink` is used only by this forwarder's thread. `storeInfo` lists the chunks now (diagd's
    /// own `LogStore.info`); `report` writes to diagd's log.
    public init(
        destination: ForwardDestination, sink: sending any ForwardSink, storeDirectory: URL,
        storeInfo: @escaping @Sendable () -> StoreInfo, cancellation: ForwardCancellation, batchSize: Int = 2000,
        maximumBackOff: Double = 30, report: @escaping @Sendable (MessageType, String) -> Void
    ) {
        self.destination = destination
        self.cursorFile = ForwardCursor.fileURL(storeDirectory: storeDirectory, destination: destination)
        self.batchSize = batchSize
        self.storeDirectory = storeDirectory
        self.storeInfo = storeInfo
        self.cancellation = cancellation
        self.maximumBackOff = maximumBackOff
        self.report = report
        work = Mutex(ForwarderWork(sink: sink, follower: StoreFollower(storeDirectory: storeDirectory)))
    }

    /// Records were committed: read them now rather than at the next poll.
    public func wake() {
        signal.withLock { signal in
            signal.pending += 1
            signal.parked.wakeAll()
        }
    }

    /// Asks `run` to return soon (after the delivery under way, whose waits give up).
    public func stop() {
        cancellation.cancel()
        wake()
    }

    /// Fixes where the forward starts (its cursor, or the store's end for a new forward) and
    /// saves it, now: diagd calls it before it accepts connections, so that a record committed
    /// before the forward's thread first runs is forwarded too. Throws when the cursor file is
    /// damaged or the store cannot be read.
    public func prepare() throws {
        try work.withLock { work in
            if work.start == nil { work.start = try startPosition(&work) }
        }
    }

    /// The forward's loop; returns after `stop`. Throws only when the cursor file is damaged.
    public func run() throws {
        try work.withLock { work in
            var position = try work.start ?? startPosition(&work)
            let reader = ForwardReadAhead(
                follower: work.follower, after: position, batchSize: batchSize,
                frames: (work.sink as? any PreEncodingForwardSink)?.frameEncoder, chunks: { [storeInfo] in storeInfo().chunks },
                cancellation: cancellation, waitForRecords: { [self] in waitForRecords() },
                failed: { [self] error in
                    report(.error, "forward \(destination): reading the store failed (retrying): \(error)")
                    sleep(seconds: 1)
                })
            work.follower = StoreFollower(storeDirectory: storeDirectory)
            reader.startReading()
            var failingSince: Date?
            var lastSave = ContinuousClock.now
            while let batch = reader.next(whileWaiting: { keepAlive(work.sink, failingSince: &failingSince) }) {
                account(batch)
                if batch.count > 0 {
                    guard deliver(batch, with: work.sink, failingSince: &failingSince) else { break }
                }
                position = batch.end
                // At most every 0.2 s while records stream (a restart may send those again),
                // and whenever the forward catches up.
                if batch.count < batchSize || lastSave.duration(to: .now) > .milliseconds(200) {
                    save(position)
                    lastSave = .now
                }
            }
            save(position)
            work.sink.close()
            report(.default, "forward \(destination): stopped after \(position); this run delivered \(statistics.delivered.load(ordering: .relaxed)) records, refused \(statistics.rejected.load(ordering: .relaxed)), lost \(statistics.lost.load(ordering: .relaxed)), \(statistics.retries.load(ordering: .relaxed)) retries")
        }
    }

    /// Delivers until the sink takes the batch or refuses it for good; false when stopped first.
    private func deliver(_ batch: StoreFollower.Batch, with sink: any ForwardSink, failingSince: inout Date?) -> Bool {
        var backOff = 0.5
        while true {
            do {
                if let frames = batch.frames, let encodingSink = sink as? any PreEncodingForwardSink {
                    try encodingSink.deliver(encoded: frames)
                } else {
                    try sink.deliver(batch.records)
                }
                statistics.delivered.add(batch.count, ordering: .relaxed)
                if let since = failingSince {
                    report(.default, "forward \(destination): the receiver takes records again after \(Int(Date().timeIntervalSince(since))) s; sending what waited in the store")
                    failingSince = nil
                }
                return true
            } catch ForwardError.rejected(let reason) {
                statistics.rejected.add(batch.count, ordering: .relaxed)
                report(.error, "forward \(destination): the receiver refused \(batch.count) records for good, skipped: \(reason)")
                return true
            } catch {
                if cancellation.isCancelled { return false }
                statistics.retries.add(1, ordering: .relaxed)
                var wait = backOff
                if case ForwardError.retryable(_, let after?) = error { wait = max(0, after) }
                if failingSince == nil {
                    failingSince = Date()
                    report(.error, "forward \(destination): \(error); records wait in the store, retrying (back-off up to \(Int(maximumBackOff)) s)")
                }
                sleep(seconds: wait)
                if cancellation.isCancelled { return false }
                backOff = min(backOff * 2, maximumBackOff)
            }
        }
    }

    /// While the forward has caught up: lets the sink check its connection and send again what a
    /// receiver that died meanwhile lost (`ForwardSink.keepAlive`). A failure is reported once,
    /// like a failed delivery, and tried again a second later.
    private func keepAlive(_ sink: any ForwardSink, failingSince: inout Date?) {
        do {
            try sink.keepAlive()
            if let since = failingSince {
                report(.default, "forward \(destination): the receiver takes records again after \(Int(Date().timeIntervalSince(since))) s; sent again what it may have lost")
                failingSince = nil
            }
        } catch {
            if cancellation.isCancelled { return }
            if failingSince == nil {
                failingSince = Date()
                report(.error, "forward \(destination): \(error); the records it may have lost are sent again once it is back")
            }
        }
    }

    private func startPosition(_ work: inout ForwarderWork) throws -> ForwardPosition {
        let info = storeInfo()
        let newest = info.chunks.map(\.sequence).max() ?? 0
        if let cursor = try ForwardCursor.load(from: cursorFile) {
            if cursor.storeIdentifier == info.identifier && cursor.position.chunk <= newest {
                report(.default, "forward \(destination): resuming after \(cursor.position)")
                return cursor.position
            }
            report(.error, "forward \(destination): the cursor \(cursorFile.path) belongs to another store (\(cursor.storeIdentifier), \(cursor.position)); forwarding this store from its oldest record")
            save(.beginning)
            return .beginning
        }
        let end = try work.follower.endPosition(chunks: info.chunks)
        report(.default, "forward \(destination): new forward, starting with the records committed from now on (after \(end))")
        save(end)
        return end
    }

    private func account(_ batch: StoreFollower.Batch) {
        for loss in batch.lost {
            if let count = loss.records {
                statistics.lost.add(Int(count), ordering: .relaxed)
                report(.error, "forward \(destination): \(count) records lost: chunk \(loss.chunk) expired (store quota) before they were forwarded")
            } else {
                report(.error, "forward \(destination): chunk \(loss.chunk) expired (store quota) before it was forwarded to its end; its remaining records are lost")
            }
        }
        for reason in batch.undecodable {
            statistics.lost.add(1, ordering: .relaxed)
            report(.error, "forward \(destination): skipped a record that cannot be read: \(reason)")
        }
    }

    private func save(_ position: ForwardPosition) {
        let cursor = ForwardCursor(url: destination.url, storeIdentifier: storeInfo().identifier, position: position)
        do {
            try cursor.save(to: cursorFile)
        } catch {
            report(.error, "forward \(destination): cannot save the cursor in \(cursorFile.path) (after a restart some records are sent again): \(error.localizedDescription)")
        }
    }

    /// Waits for `wake` or a second, whichever comes first (chunks rotate, expiry runs).
    private func waitForRecords() {
        let cancellation = cancellation
        _ = signal.wait(on: \.parked, until: .now() + .seconds(1)) { signal -> Bool? in
            guard signal.pending > 0 || cancellation.isCancelled else { return nil }
            signal.pending = 0
            return true
        }
    }

    /// Waits `seconds`, or less when the forward is stopped (`stop` wakes it).
    private func sleep(seconds: Double) {
        let cancellation = cancellation
        _ = signal.wait(on: \.parked, until: .now() + .nanoseconds(Int(max(0, seconds) * 1e9))) { _ in
            cancellation.isCancelled ? true : nil
        }
    }
}

/// `Forwarder.wake`'s signal: how many wake-ups came since the forward last looked at the store.
struct WakeSignal: Sendable {
    var pending = 0
    var parked = ParkedThreads()
}

/// What the forwarder thread alone touches, behind a mutex so that `Forwarder` is `Sendable`.
struct ForwarderWork: ~Copyable {
    var sink: any ForwardSink
    var follower: StoreFollower
    /// Where the forward starts, once `prepare` fixed it.
    var start: ForwardPosition?
}

/// A forward's running totals (records).
public final class ForwardStatistics: Sendable {
    public let delivered = Atomic<Int>(0)
    public let rejected = Atomic<Int>(0)
    public let lost = Atomic<Int>(0)
    public let retries = Atomic<Int>(0)
}
