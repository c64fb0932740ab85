import DiagModel
import Foundation
import Synchronization

/// The single thread that writes: it takes everything queued, commits it in one transaction,
/// then answers the `sync` requests it covers.
///
/// When a commit fails (a full disk, most often) the batch is kept and retried; meanwhile the
/// connections refuse new records with an error reply, and resume once a retry succeeds.
final class StoreWriterThread: @unchecked Sendable {
    // Safe: `store` is used only by the writer thread once `start` is called; the rest is Sendable.
    private let store: any RecordStore
    private let queue: RecordQueue
    private let counters: IngestCounters
    private let failure = Mutex<String?>(nil)
    private let stopping = Atomic<Bool>(false)
    /// Set once the writer has committed what was queued and closed the store.
    private let finished = Mutex(Finished())

    private struct Finished: Sendable {
        var done = false
        var waiting = ParkedThreads()
    }
    let retryInterval: Double
    let maintenanceInterval: Double
    /// Called with each problem the writer meets, for the daemon's own log.
    let report: @Sendable (MessageType, String) -> Void

    init(
        store: any RecordStore, queue: RecordQueue, counters: IngestCounters,
        retryInterval: Double = 0.5, maintenanceInterval: Double = 1, report: @escaping @Sendable (MessageType, String) -> Void
    ) {
        self.store = store
        self.queue = queue
        self.counters = counters
        self.retryInterval = retryInterval
        self.maintenanceInterval = maintenanceInterval
        self.report = report
    }

    /// Why the store refuses writes now, or nil when it takes them.
    var storeFailure: String? { failure.withLock { $0 } }

    func start() {
        let thread = Thread { [self] in
            ThreadName.setCurrent("diagd-writer")
            run()
        }
        thread.start()
    }

    /// Closes the queue; the writer commits what is queued and stops retrying a failing store.
    func stop() {
        stopping.store(true, ordering: .relaxed)
        queue.close()
    }

    /// Waits until the queue is closed and everything in it committed (or given up on).
    func waitUntilFinished() {
        _ = finished.wait(on: \.waiting) { $0.done ? () : nil }
    }

    private func run() {
        var lastMaintenance = Date()
        var lastRecords = Date()
        // Once records stop and the idle maintenance has nothing left, the writer sleeps until
        // the next record (or the store's own idle check): an idle daemon does not wake.
        var rested = false
        while var drain = queue.take(waitSeconds: rested ? store.idleCheckInterval : maintenanceInterval) {
            if !drain.records.isEmpty {
                commit(drain.records)
                lastRecords = Date()
                rested = false
                queue.recycle(&drain.records)
            }
            for sync in drain.syncs { sync.reply() }
            if rested || Date().timeIntervalSince(lastMaintenance) >= maintenanceInterval {
                lastMaintenance = Date()
                let idle = Date().timeIntervalSince(lastRecords) >= maintenanceInterval
                maintain(idle: idle)
                rested = idle && !store.needsMaintenance
            }
        }
        maintain(idle: true)
        do { try store.close() } catch { report(.error, "closing the store failed: \(error)") }
        finished.withLock { state in
            state.done = true
            state.waiting.wakeAll()
        }
    }

    /// Commits, retrying while the store refuses; never drops the batch while the daemon runs.
    private func commit(_ records: PackedRecords) {
        let count = records.count
        while true {
            do {
                try store.append(records)
                counters.add(counters.persisted, count)
                counters.add(counters.transactions)
                if let previous = failure.withLock({ state -> String? in defer { state = nil }; return state }) {
                    report(.default, "the store takes writes again (it failed with: \(previous))")
                }
                return
            } catch {
                let message = "\(error)"
                let first = failure.withLock { state -> Bool in defer { state = message }; return state == nil }
                if first { report(.fault, "cannot write to the store, refusing records until it recovers: \(message)") }
                if stopping.load(ordering: .relaxed) {
                    report(.fault, "exiting with \(count) unacknowledged records not written: \(message)")
                    return
                }
                Thread.sleep(forTimeInterval: retryInterval)
                maintain(idle: false)
            }
        }
    }

    private func maintain(idle: Bool) {
        do { try store.maintain(idle: idle) } catch { report(.error, "store maintenance failed: \(error)") }
    }
}
