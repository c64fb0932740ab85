import DiagModel
import Synchronization

/// Where parsed syslog messages go: the same level routing as diagd's own socket (store, ring,
/// live streams), then the writer's queue.
///
/// Datagrams wait for room in the queue at most `datagramWait`: while they wait, the kernel's
/// socket queue fills and senders wait in turn (back-pressure, as with any syslog daemon); a
/// writer stuck longer than that must not hang every sender of `/dev/log`, so the batch is then
/// lost, as it is at once while the store refuses writes: counted in `syslogLost`, and reported
/// in diagd's log (and so in the store, under process `diagd`) at most every `reportInterval`.
/// TCP batches wait for room as long as it takes (TCP has back-pressure, and a sender can time out).
final class SyslogIntake: Sendable {
    let context: IngestContext
    private let pendingReport = Mutex(PendingReport())
    /// Told how long until a report falls due when something first waits to be reported: the
    /// syslog loop's timer, so that nothing wakes to look while there is nothing to report.
    private let reportPending = Mutex<(@Sendable (_ dueInNanoseconds: Int64) -> Void)?>(nil)
    static let reportInterval: Int64 = 5_000_000_000
    static let datagramWait = 1.0

    private struct PendingReport {
        var lost = 0
        var invalid = 0
        var firstInvalid: String?
        var lastReport: Int64 = 0
    }

    init(context: IngestContext) {
        self.context = context
    }

    func whenReportPending(_ schedule: @escaping @Sendable (_ dueInNanoseconds: Int64) -> Void) {
        reportPending.withLock { $0 = schedule }
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
        // Counted once queued, so that a `sync` sent after `syslogReceived` covers them.
        defer { counters.add(counters.syslogReceived, total) }
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
        guard context.queue.offer(batch.persisted, bytes: batch.persistedBytes, waitSeconds: Self.datagramWait) else {
            lost(batch.persisted.count)
            return false
        }
        return true
    }

    /// A message refused as malformed: counted, and the first reason of each interval logged.
    func invalid(_ reason: String) {
        context.counters.add(context.counters.syslogInvalid)
        record { state in
            state.invalid += 1
            if state.firstInvalid == nil { state.firstInvalid = reason }
        }
    }

    private func lost(_ count: Int) {
        context.counters.add(context.counters.syslogLost, count)
        record { $0.lost += count }
    }

    /// Adds to what waits to be reported; the first addition since a report schedules the next.
    private func record(_ change: (inout PendingReport) -> Void) {
        let now = DaemonLog.now()
        let dueIn = pendingReport.withLock { state -> Int64? in
            let first = state.lost == 0 && state.invalid == 0
            change(&state)
            return first ? state.lastReport + Self.reportInterval - now : nil
        }
        if let dueIn, let schedule = reportPending.withLock({ $0 }) { schedule(dueIn) }
    }

    /// Logs what was lost or refused since the last report, when a report is due (or `force`).
    /// Returns how long until one is due when something waits that is not due yet.
    @discardableResult
    func reportIfDue(now: Int64, force: Bool = false) -> Int64? {
        var notYet: Int64?
        let due = pendingReport.withLock { state -> PendingReport? in
            guard state.lost > 0 || state.invalid > 0 else { return nil }
            guard force || now - state.lastReport >= Self.reportInterval else {
                notYet = state.lastReport + Self.reportInterval - now
                return nil
            }
            defer { state = PendingReport(lastReport: now) }
            return state
        }
        guard let due else { return notYet }
        let totalLost = context.counters.syslogLost.load(ordering: .relaxed)
        if due.lost > 0 {
            context.log.log(
                .error,
                "syslog: lost \(due.lost) message\(due.lost == 1 ? "" : "s") (\(totalLost) since start): the store writer was behind (queue full for over \(Int(Self.datagramWait)) s) or the store refused writes",
                category: "syslog")
        }
        if due.invalid > 0, let first = due.firstInvalid {
            context.log.log(.error, "syslog: refused \(due.invalid) malformed message\(due.invalid == 1 ? "" : "s"); the first: \(first)", category: "syslog")
        }
        return nil
    }
}
