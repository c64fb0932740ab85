import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport
@testable import DiagStore

/// `CPUSharePacer`'s share changing under it (diagd: a whole core while no record comes in,
/// half of one while records do), and the finisher that follows the writer's idleness.
@Suite struct CPUSharePacerTests {
    /// Burns `seconds` of this thread's CPU time, calling `pace()` as a build does between rows.
    private func work(_ pacer: inout CPUSharePacer, cpuSeconds: Double) {
        let start = Self.threadCPU()
        var sink = 0
        while Self.threadCPU() - start < cpuSeconds {
            for index in 0..<2_000 { sink &+= index &* index }
            pacer.pace()
        }
        withExtendedLifetime(sink) {}
    }

    private static func threadCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    @Test func aNewShareCountsFromNowWithoutDebtOrCredit() {
        let share = Mutex(1.0)
        var pacer = CPUSharePacer(share: 1, shareNow: { _ in share.withLock { $0 } })
        work(&pacer, cpuSeconds: 0.2)
        #expect(pacer.slept == 0, "a whole core: no pause")
        // Down to a tenth: the 0.2 s used at a whole core are not owed (2 s of pauses, as the
        // share counted from the start would have it); only the work from now on is paced.
        share.withLock { $0 = 0.1 }
        work(&pacer, cpuSeconds: 0.02)
        #expect(pacer.share == 0.1)
        #expect(pacer.slept > 0.05 && pacer.slept < 0.6, "\(pacer.slept)")
        // Up to a whole core: no burst, and no more pauses.
        share.withLock { $0 = 1 }
        let before = pacer.slept
        work(&pacer, cpuSeconds: 0.1)
        #expect(pacer.share == 1)
        #expect(pacer.slept == before)
    }

    /// diagd's finisher: held to a hundredth of a core while the writer is busy, a closed chunk's
    /// search index is not built in a second; once the writer says it is idle, it is, at once.
    @Test func theFinisherTakesTheIdleShareWhenTheWriterIsIdle() throws {
        let folder = try TemporaryDirectory()
        let (store, _) = try StoreReadersTests.storeWithAClosedChunk(in: folder)
        let finisher = ClosedChunkFinisher(store: store, cpuShare: 0.01, idleShare: 1)
        finisher.setWriterIdle(false)
        finisher.requestPass()
        Thread.sleep(forTimeInterval: 1)
        #expect(!finisher.isIdle)
        #expect(store.info.chunks.first?.searchIndex == false)
        finisher.setWriterIdle(true)
        let done = DispatchSemaphore(value: 0)
        Thread { _ = try? finisher.wait(); done.signal() }.start()
        #expect(done.wait(timeout: .now() + 60) == .success, "the finisher still works at a hundredth of a core")
        #expect(store.info.chunks.first?.searchIndex == true)
    }

    /// The seals keep to the busy share too (during a burst they took a whole core beside the
    /// writer): a chunk of 20,000 records at a hundredth of a core is not sealed within a
    /// second, and is sealed soon once the writer is idle.
    @Test func theSealsKeepToTheBusyShare() throws {
        try expectHeldThenFinished(cpuShare: 0.01, idleShare: 1, saturatedShare: nil,
                                   hold: { $0.setWriterIdle(false) }, release: { $0.setWriterIdle(true) })
    }

    /// A closed chunk of 20,000 records and a finisher `hold` keeps to a hundredth of a core: not
    /// sealed within a second; sealed and search-indexed soon after `release`.
    private func expectHeldThenFinished(cpuShare: Double, idleShare: Double, saturatedShare: Double?,
                                        hold: (ClosedChunkFinisher) -> Void, release: (ClosedChunkFinisher) -> Void,
                                        sourceLocation: SourceLocation = #_sourceLocation) throws {
        let folder = try TemporaryDirectory()
        let store = try LogStore.open(at: folder.file("s.logarchive"), create: true, options: .init(sealOnRotation: false))
        try store.append((0..<20_000).map { StoreTestRecords.full($0) })
        try store.rotate()
        let finisher = ClosedChunkFinisher(store: store, cpuShare: cpuShare, idleShare: idleShare, saturatedShare: saturatedShare)
        hold(finisher)
        finisher.requestPass()
        Thread.sleep(forTimeInterval: 1)
        #expect(!finisher.isIdle, sourceLocation: sourceLocation)
        #expect(store.info.chunks.first?.sealed == false, "the seal ran past its share", sourceLocation: sourceLocation)
        release(finisher)
        let done = DispatchSemaphore(value: 0)
        Thread { _ = try? finisher.wait(); done.signal() }.start()
        #expect(done.wait(timeout: .now() + 60) == .success, "the finisher still works at a hundredth of a core",
                sourceLocation: sourceLocation)
        #expect(store.info.chunks.first?.sealed == true, sourceLocation: sourceLocation)
        #expect(store.info.chunks.first?.searchIndex == true, sourceLocation: sourceLocation)
    }

    /// diagd's finisher while its writer is saturated (a burst that keeps it committing more
    /// than half the time): the seals and builds keep to the saturated share, here a hundredth
    /// of a core, and to the busy share (here a whole core) once the writer keeps up again.
    @Test func theFinisherTakesTheSaturatedShareWhileTheWriterIsSaturated() throws {
        try expectHeldThenFinished(cpuShare: 1, idleShare: 1, saturatedShare: 0.01, hold: { finisher in
            finisher.setWriterIdle(false)
            finisher.setWriterSaturated(true)
        }, release: { $0.setWriterSaturated(false) })
    }

    /// Which share the finisher keeps to: idle (and nobody reading) before saturated, saturated
    /// only while the writer is not idle, the busy share otherwise, and a whole core when the
    /// finisher was given no share (`diag import`).
    @Test func theShareFollowsTheWriterAndTheReaders() {
        func share(idle: Bool, saturated: Bool, readers: Bool, saturatedShare: Double? = 0.15) -> Double {
            ClosedChunkFinisher.share(cpuShare: 0.5, idleShare: 1, saturatedShare: saturatedShare,
                                      writerIdle: idle, writerSaturated: saturated, readersThere: readers)
        }
        #expect(share(idle: false, saturated: false, readers: false) == 0.5)
        #expect(share(idle: false, saturated: true, readers: false) == 0.15)
        #expect(share(idle: false, saturated: true, readers: true) == 0.15)
        #expect(share(idle: true, saturated: false, readers: false) == 1)
        #expect(share(idle: true, saturated: true, readers: false) == 1, "idle since: the last verdict is stale")
        #expect(share(idle: true, saturated: true, readers: true) == 0.5)
        #expect(share(idle: true, saturated: false, readers: true) == 0.5)
        #expect(share(idle: false, saturated: true, readers: false, saturatedShare: nil) == 0.5)
        #expect(ClosedChunkFinisher.share(cpuShare: nil, idleShare: nil, saturatedShare: nil,
                                          writerIdle: false, writerSaturated: true, readersThere: false) == 1)
    }

    /// An idle writer but a reader there: the builds that run beside the reader (once the wait
    /// for it reached its bound, here at once) keep to the busy share, and take the idle one
    /// when the reader leaves.
    @Test func aReaderKeepsTheFinisherAtTheBusyShare() throws {
        let folder = try TemporaryDirectory()
        let (store, url) = try StoreReadersTests.storeWithAClosedChunk(in: folder)
        let finisher = ClosedChunkFinisher(store: store, cpuShare: 0.01, idleShare: 1, yieldsToReaders: true, readerYield: 0.001)
        finisher.setWriterIdle(true)
        var reader: LogStore? = try LogStore.openForReading(at: url)
        finisher.requestPass()
        Thread.sleep(forTimeInterval: 1)
        #expect(!finisher.isIdle)
        #expect(store.info.chunks.first?.searchIndex == false)
        #expect(try reader?.records().all().count == 2_001)
        reader = nil
        let done = DispatchSemaphore(value: 0)
        Thread { _ = try? finisher.wait(); done.signal() }.start()
        #expect(done.wait(timeout: .now() + 60) == .success, "the finisher still works at a hundredth of a core")
        #expect(store.info.chunks.first?.searchIndex == true)
    }
}
