import DiagModel
import Dispatch
import Foundation
import Synchronization

/// Seals the chunks a writer has closed and builds their message search indexes on a thread of
/// its own, so that the writer goes on appending meanwhile (the search index takes seconds per
/// full chunk). `diag import` and diagd use it; nobody has to run `diag index`.
///
/// Work requests coalesce: while a pass runs, further `requestPass` calls mark one more pass.
public final class ClosedChunkFinisher: Sendable {
    private struct State {
        var running = false
        var again = false
        var firstError: (any Error)?
        var passes = 0
        var cancelled = false
    }

    private let store: LogStore
    private let queue: DispatchQueue
    /// The queue's label, and the thread's name while a pass runs (`top -H`; 15 bytes kept).
    private let label: String
    private let state = Mutex(State())
    private let group = DispatchGroup()
    /// Called first on the finisher's thread (diagd lowers its priority there).
    private let prepareThread: @Sendable () -> Void
    /// The share of one core the search index builds are held to (`CPUSharePacer`); nil: as
    /// much as the scheduler gives.
    private let cpuShare: Double?
    /// The share while the writer is idle (`setWriterIdle`); nil: `cpuShare` always.
    private let idleShare: Double?
    private let writerIdle = Atomic(false)
    /// The share while the writer is saturated (`setWriterSaturated`); nil: `cpuShare` then too.
    private let saturatedShare: Double?
    private let writerSaturated = Atomic(false)
    /// Readers of the store, whom the search index builds give way to (`StoreReaders`); nil:
    /// they do not.
    private let readers: StoreReaders.Presence?
    /// The longest wait for readers in a row, in seconds (`CPUSharePacer.maximumYield`).
    private let readerYield: Double
    /// The longest wait for readers in a row of a seal, in seconds (at most `readerYield`).
    private let sealYield: Double

    /// `yieldsToReaders`: the search index builds wait while a reader holds its mark on the
    /// store, `readerYield` seconds at most in a row, then work `CPUSharePacer`'s `minimumRun`
    /// (5 s) before they wait again; diagd's finisher does. 10 s covers a `MATCHES` over 10M records
    /// (about 5 s here); a `diag show` left open in a pager slows the builds to a third.
    /// `idleShare`: the share while the writer says it is idle (`setWriterIdle`), from the pacer's
    /// next look at the clocks (every 256 records indexed). `saturatedShare`: the share while
    /// the writer says it is saturated (`setWriterSaturated`), and not idle.
    ///
    /// The seals keep to the same shares, and give way to readers too, looking before each
    /// chunk and every few milliseconds inside (`ChunkSealer.seal`), but `sealYield` seconds at
    /// most in a row (then they run `minimumRun`, 5 s): a seal is what a window query of recent
    /// records needs, and under a reader who stays (a `--follow`) they keep 5/7 of their pace.
    /// A look that finds no reader ends that: the next query is waited for again.
    /// A seal takes half a second of a core a chunk; unpaced, it took a whole core from a burst
    /// of records, and beside a query on a 2-core machine one of the query's two (through diagd
    /// at 10M, 5 s after the last ack, 12–14 chunks still to seal: a common `CONTAINS` took
    /// 1.5–1.9 s, 0.90 s once diagd had stopped).
    public init(store: LogStore, label: String = "diag-finisher", cpuShare: Double? = nil, idleShare: Double? = nil,
                saturatedShare: Double? = nil, yieldsToReaders: Bool = false, readerYield: Double = 10, sealYield: Double = 2,
                prepareThread: @escaping @Sendable () -> Void = {}) {
        self.store = store
        self.label = label
        self.queue = DispatchQueue(label: label)
        self.cpuShare = cpuShare
        self.idleShare = idleShare
        self.saturatedShare = saturatedShare
        self.readers = yieldsToReaders ? StoreReaders.Presence(storeURL: store.url) : nil
        self.readerYield = readerYield
        self.sealYield = min(sealYield, readerYield)
        self.prepareThread = prepareThread
    }

    /// Whether some closed chunk still waits for its seal or its search index.
    public var hasWork: Bool { store.closedChunksAwaitingSearchIndex > 0 }

    /// Starts a pass now, or one more after the running one.
    public func requestPass() {
        let start = state.withLock { state -> Bool in
            if state.cancelled { return false }
            if state.running { state.again = true; return false }
            state.running = true
            return true
        }
        guard start else { return }
        group.enter()
        queue.async { [self] in
            // Dispatch's worker, named for the time of the pass (`ThreadName`).
            let workerName = ThreadName.current
            ThreadName.setCurrent(label)
            defer { ThreadName.setCurrent(workerName) }
            prepareThread()
            repeat {
                do {
                    guard !isCancelled else { break }
                    // A cancel (diagd stopping, which waits for this pass) ends a wait at once.
                    let readers = self.readers
                    let yieldsTo: (() -> Bool)? = readers.map { readers in { !self.isCancelled && readers.readersPresent } }
                    // The idle share only while no reader is there either: after a long wait
                    // for readers, the builds run beside them (`minimumRun`), and a whole core
                    // then took one of a query's two (Benchmarks/userpath.sh through diagd at
                    // 10M: a common CONTAINS 1.44 s at half a core, 1.90 s so, 1.38 s as now).
                    let shareNow: ((Bool) -> Double)? = idleShare == nil && saturatedShare == nil ? nil : { [self] readersThere in
                        Self.share(cpuShare: cpuShare, idleShare: idleShare, saturatedShare: saturatedShare,
                                   writerIdle: writerIdle.load(ordering: .relaxed),
                                   writerSaturated: writerSaturated.load(ordering: .relaxed), readersThere: readersThere)
                    }
                    // One pacer for the seals, one for the search index builds: the same shares,
                    // a shorter wait for readers for the seals (see `init`). None for `diag
                    // import`, which sets neither.
                    let paced = cpuShare != nil || readers != nil
                    let pacer = { (maximumYield: Double) in
                        paced ? CPUSharePacer(share: self.cpuShare ?? 1, shareNow: shareNow, yieldsTo: yieldsTo, maximumYield: maximumYield) : nil
                    }
                    var sealPacer = pacer(sealYield)
                    let sealPace: ((Bool) -> Void)? = paced ? { lookNow in sealPacer?.pace(lookNow: lookNow) } : nil
                    try store.sealPendingChunks(pace: sealPace)
                    var indexPacer = pacer(readerYield)
                    // One search index at a time, and a chunk that closes meanwhile is sealed
                    // from inside the build, between two of its records (another file, another
                    // connection; the build's transaction waits): a seal (the timestamp index a
                    // window query needs, and 4 KiB pages for a burst's chunk) costs a fifth of
                    // a search index, and until the index exists the block sets serve a CONTAINS.
                    // Indexing every sealed chunk first left a busy diagd's newest chunks
                    // unsealed, and a window query scanned each of them whole; sealing only
                    // between two builds left the last chunks of 1M records (`Benchmarks/
                    // userpath.sh` through diagd) unsealed 5 s after the last record, behind the
                    // build of the first chunk's index. The seal's CPU time is the thread's, so
                    // the build's pacer counts it too.
                    var sinceLook = 0
                    var nestedSealFailed = false
                    let indexPace = { [self] in
                        indexPacer?.pace()
                        sinceLook += 1
                        guard sinceLook >= Self.sealLookStride, !nestedSealFailed else { return }
                        sinceLook = 0
                        guard !isCancelled else { return }
                        // With no closed chunk waiting, the same look as a count would be: one
                        // walk of the chunk list under the store's lock.
                        do {
                            try store.sealPendingChunks(pace: sealPace)
                        } catch {
                            // Once a pass: the error is the pass's, and the next pass tries again.
                            nestedSealFailed = true
                            state.withLock { if $0.firstError == nil { $0.firstError = error } }
                        }
                    }
                    while !isCancelled,
                          try store.buildSearchIndexes(limit: 1, shouldContinue: { [self] in !isCancelled }, pace: indexPace) > 0
                    {
                        try store.sealPendingChunks(pace: sealPace)
                    }
                } catch {
                    state.withLock { if $0.firstError == nil { $0.firstError = error } }
                }
            } while state.withLock { state -> Bool in
                state.passes += 1
                if state.again { state.again = false; return true }
                state.running = false
                return false
            }
            group.leave()
        }
    }

    /// Records indexed between two looks for a chunk that closed and waits for its seal (a look,
    /// `sealPendingChunks` finding nothing, takes the store's lock and walks its chunk list:
    /// some microseconds; 4,096 records are some 20 ms of a search index build).
    static let sealLookStride = 4_096

    /// Whether the store's writer has had nothing to write for a while (diagd: no record for a
    /// second): the builds then run at `idleShare` while no reader is there, and at `cpuShare`
    /// again once records (or readers) come.
    public func setWriterIdle(_ idle: Bool) {
        writerIdle.store(idle, ordering: .relaxed)
    }

    /// Whether the store's writer is the bottleneck of ingest (diagd: it spent most of the last
    /// half second committing, `WriterDutyCycle`): the builds then run at `saturatedShare`, so
    /// that the writer and the connections it waits on keep the cores, and at `cpuShare` again
    /// once it keeps up with room to spare. Idle (`setWriterIdle`) counts before this.
    public func setWriterSaturated(_ saturated: Bool) {
        writerSaturated.store(saturated, ordering: .relaxed)
    }

    /// The share of one core the seals and builds keep to: `idleShare` while the writer is idle
    /// and no reader is there; else `saturatedShare` while the writer is saturated; else
    /// `cpuShare` (a whole core when nil).
    static func share(cpuShare: Double?, idleShare: Double?, saturatedShare: Double?,
                      writerIdle: Bool, writerSaturated: Bool, readersThere: Bool) -> Double {
        if writerIdle, !readersThere, let idleShare { return idleShare }
        if writerSaturated, !writerIdle, let saturatedShare { return saturatedShare }
        return cpuShare ?? 1
    }

    /// Stops after the chunk being worked on; no pass starts after this.
    public func cancel() {
        state.withLock { $0.cancelled = true }
    }

    private var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Passes completed so far (for tests and the daemon's log).
    public var completedPasses: Int { state.withLock { $0.passes } }

    /// Waits for the running pass (and the one requested after it); throws the first error any
    /// pass met, once.
    public func wait() throws {
        group.wait()
        if let error = takeError() { throw error }
    }

    /// The first error a pass met since the last call, without waiting.
    public func takeError() -> (any Error)? {
        state.withLock { state -> (any Error)? in defer { state.firstError = nil }; return state.firstError }
    }

    /// Whether no pass runs now.
    public var isIdle: Bool { state.withLock { !$0.running } }
}
