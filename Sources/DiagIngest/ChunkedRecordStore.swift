import DiagModel
import DiagStore
import Foundation

/// The writer thread's view of a `LogStore`: appends on the writer thread; the sealing of closed
/// chunks and their message search indexes (seconds for a big chunk) on a thread of their own,
/// started as soon as a chunk closes and held to `finisherShare` of one core (less while the
/// writer is saturated, a whole core once records stop), so that a burst keeps the rest (a closed
/// chunk stays readable meanwhile, scanned instead of searched). A restart picks up what was
/// left undone.
final class ChunkedRecordStore: RecordStore {
    let store: LogStore
    private let finisher: ClosedChunkFinisher
    let maximumSize: Int64
    /// Seconds.
    let maximumAge: Int64?
    let report: @Sendable (MessageType, String) -> Void

    init(
        directory: String, chunkSize: Int64, maximumSize: Int64, maximumAge: Int64?,
        report: @escaping @Sendable (MessageType, String) -> Void
    ) throws {
        store = try LogStore.open(
            at: URL(fileURLWithPath: directory), create: true,
            options: LogStore.Options(chunkSizeLimit: chunkSize, sealOnRotation: false, foldsWALAtSeal: true,
                                     writesBurstsInLargePages: true))
        finisher = ClosedChunkFinisher(store: store, label: "diagd-sealing", cpuShare: Self.finisherShare,
                                       idleShare: Self.idleFinisherShare, saturatedShare: Self.saturatedFinisherShare,
                                       yieldsToReaders: true)
        self.maximumSize = maximumSize
        self.maximumAge = maximumAge
        self.report = report
    }

    /// The share of one core the finisher's search index builds are held to, at the normal
    /// priority (issue 15): niced by 10 instead, it got almost no CPU while ingest or other
    /// processes kept the cores busy (Benchmarks/userpath.sh at 1M on a machine at load 11: a
    /// minute and a half after the last record, 1 closed chunk of 4 indexed; at half a core, 4).
    static let finisherShare = 0.5

    /// The share while no record comes in (the writer has been idle a second) and no reader is
    /// there: a whole core, so that the chunks closed during a burst (a repro) are indexed sooner
    /// for whoever queries them next. After the last of 1M records (4 clients), at half a core 1
    /// closed chunk of 5 was indexed 11 s later; at a whole core 2 at 7 s, 3 at 10 s, 4 at 12 s.
    /// Back to `finisherShare` with the next batch, or while a reader is there.
    static let idleFinisherShare = 1.0

    /// The share while the writer is saturated (`WriterDutyCycle`: on a core committing more than
    /// half of the last half second), and not idle: the burst's ingest keeps the cores, and the chunks it
    /// closed are sealed and indexed at `idleFinisherShare` once it ends. `Benchmarks/ingest.sh`,
    /// 10 rounds beside the build without (2026-12-06): faster in 9, median 607,800 records/s
    /// against 526,462; every closed chunk finished 7.7–10.1 s after the last acknowledgement
    /// against 7.2–8.9 s (docs/STORE.md, "Chunks written in a burst").
    static let saturatedFinisherShare = 0.15

    /// Only the writer thread calls `append` and `maintain`.
    private var dutyCycle = WriterDutyCycle(now: WriterDutyCycle.now())
    /// The verdict last given to the finisher (`setWriterSaturated`).
    var writerSaturated: Bool { dutyCycle.saturated }

    func append(_ records: PackedRecords) throws {
        finisher.setWriterIdle(false)
        let cpu = WriterDutyCycle.threadCPU()
        defer { finisher.setWriterSaturated(dutyCycle.commit(busy: WriterDutyCycle.threadCPU() - cpu, endingAt: WriterDutyCycle.now())) }
        try store.append(packed: records)
    }

    func maintain(idle: Bool) throws {
        finisher.setWriterIdle(idle)
        finisher.setWriterSaturated(dutyCycle.look(now: WriterDutyCycle.now()))
        let expired = try store.expire(maxTotalBytes: maximumSize, maxAge: maximumAge.map { $0 * 1_000_000_000 })
        if !expired.removedChunks.isEmpty {
            report(.default, "quota: dropped \(expired.removedChunks.count) oldest chunks (\(expired.removedRecords) records, \(expired.removedBytes) bytes): \(expired.removedChunks.joined(separator: ", "))")
        }
        // Records that stopped coming end a burst: its chunk closes, and the pass below seals it
        // (at the idle share), so that a window over a repro's newest records reads a sealed
        // chunk instead of scanning an open one (`LogStore.endBurst`). After the expiry, which a
        // full disk needs most, whatever this meets.
        if idle {
            do { try store.endBurst() } catch { report(.error, "closing the chunk of a burst that ended failed: \(error)") }
        }
        let awaiting = store.closedChunksAwaitingSearchIndex
        if let error = finisher.takeError() {
            let delay = Self.retryDelay(afterFailures: finisherRetry.failures + 1)
            finisherRetry = (finisherRetry.failures + 1, .now + .seconds(delay), awaiting)
            report(.error, "sealing or indexing a closed chunk failed (it stays readable, unindexed; tried again in \(delay) s): \(error)")
        } else if awaiting < finisherRetry.awaiting {
            finisherRetry = (0, nil, awaiting)  // a chunk got done: the cause went away
        }
        // A closed chunk is finished as soon as it is closed, under load too (issue 15): waiting
        // for a lull (or a backlog of three, as before) left most chunks of a busy daemon
        // unsealed and unindexed, so every query scanned them on one thread. The finisher is
        // held to its share of a core, so ingest keeps the rest; it never waits for it.
        guard awaiting > 0, finisher.isIdle else { return }
        if let due = finisherRetry.due, ContinuousClock.now < due { return }
        finisher.requestPass()
    }

    /// Failed passes of the finisher in a row, when the next may start, and how many chunks were
    /// waiting at the last failure (fewer since means one got done).
    private var finisherRetry: (failures: Int, due: ContinuousClock.Instant?, awaiting: Int) = (0, nil, .max)

    /// Seconds before the finisher tries again after `failures` failed passes in a row: 1, 2, 4 …
    /// up to 5 minutes. It tried again at once: on a full disk, twice a second for as long as the
    /// disk stayed full, each time logging the error (1,212 times in 11 minutes, found today).
    static func retryDelay(afterFailures failures: Int) -> Int {
        min(300, 1 << min(max(failures - 1, 0), 9))
    }

    var needsMaintenance: Bool {
        store.closedChunksAwaitingSearchIndex > 0 || !finisher.isIdle
    }

    /// A tenth of the maximum age, between a second and an hour: chunks are dropped at most
    /// that late.
    var idleCheckInterval: Double? {
        maximumAge.map { min(3600, max(1, Double($0) / 10)) }
    }

    /// Lets the chunk being indexed finish (bounded: one chunk), then closes the store; what is
    /// left is indexed after the next start.
    func close() throws {
        finisher.cancel()
        try? finisher.wait()
        try store.close()
    }
}

@available(*, unavailable) extension ChunkedRecordStore: Sendable {}
