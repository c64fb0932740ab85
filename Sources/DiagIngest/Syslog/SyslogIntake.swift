import DiagModel
import Synchronization

/// Where parsed syslog messages go: the same level routing as diagd's own socket (store, ring,
/// live streams), then the writer's queue.
///
/// Datagrams are offered without waiting: a sender of `/dev/log` must not hang because diagd
/// is behind, so when the queue is full (or the store refuses writes) the batch is lost, counted
/// in `syslogLost`, and reported in diagd's log (and so in the store, under process `diagd`) at
/// most every `reportInterval`. TCP batches wait for room instead (TCP has back-pressure).
final class SyslogIntake: Sendable {
    let context: IngestContext
    private let pendingReport = Mutex(PendingReport())
    static let reportInterval: Int64 = 5_000_000_000

    private struct PendingReport {
        var lost = 0
        var invalid = 0
        var firstInvalid: String?
        var lastReport: Int64 = 0
    }

    init(context: IngestContext) {
        self.context = context
    }

    func beginBatch(receiptTime: Int64) -> LineBatch {
        var batch = LineBatch()
        batch.begin(
            receiptTime: receiptTime, storeFailure: context.writer.storeFailure, levels: context.levels.snapshot,
            streaming: !context.hub.isEmpty)
        return batch
    }

    /// Routes a batch; `wait` false drops it when the queue has no room now. Returns whether it was taken.
    @discardableResult
    func finish(_ batch: inout LineBatch, wait: Bool) -> Bool {
        defer { batch.reset() }
        let counters = context.counters
        let total = batch.persisted.count + batch.ringOnly.count + batch.dropped
        guard total > 0 else { return true }
        counters.add(counters.syslogReceived, total)
        if batch.storeFailure != nil && !batch.persisted.isEmpty {
            counters.add(counters.refusedWhileStoreFailing, batch.persisted.count)
            lost(batch.persisted.count)
            batch.persisted = []
            batch.persistedBytes = 0
        }
        counters.add(counters.received, total)
        counters.add(counters.ringOnly, batch.ringOnly.count)
        counters.add(counters.droppedByLevel, batch.dropped)
        if !batch.live.isEmpty { counters.add(counters.streamDrops, context.hub.publish(batch.live)) }
        context.ring.append(batch.ringOnly, sizes: batch.ringOnlySizes)
        if wait { return context.queue.push(batch.persisted, bytes: batch.persistedBytes) }
        guard context.queue.offer(batch.persisted, bytes: batch.persistedBytes) else {
            lost(batch.persisted.count)
            return false
        }
        return true
    }

    /// A message refused as malformed: counted, and the first reason of each interval logged.
    func invalid(_ reason: String) {
        context.counters.add(context.counters.syslogInvalid)
        pendingReport.withLock { state in
            state.invalid += 1
            if state.firstInvalid == nil { state.firstInvalid = reason }
        }
    }

    private func lost(_ count: Int) {
        context.counters.add(context.counters.syslogLost, count)
        pendingReport.withLock { $0.lost += count }
    }

    /// Logs what was lost or refused since the last report; called by the listeners' threads.
    func reportIfDue(now: Int64, force: Bool = false) {
        let due = pendingReport.withLock { state -> PendingReport? in
            guard state.lost > 0 || state.invalid > 0, force || now - state.lastReport >= Self.reportInterval else { return nil }
            defer { state = PendingReport(lastReport: now) }
            return state
        }
        guard let due else { return }
        let totalLost = context.counters.syslogLost.load(ordering: .relaxed)
        if due.lost > 0 {
            context.log.log(
                .error,
                "syslog: lost \(due.lost) message\(due.lost == 1 ? "" : "s") (\(totalLost) since start): the store writer was behind (queue full) or the store refused writes, and datagrams cannot wait",
                category: "syslog")
        }
        if due.invalid > 0, let first = due.firstInvalid {
            context.log.log(.error, "syslog: refused \(due.invalid) malformed message\(due.invalid == 1 ? "" : "s"); the first: \(first)", category: "syslog")
        }
    }
}
