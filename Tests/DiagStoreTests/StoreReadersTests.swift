import DiagModel
import Foundation
import Synchronization
import Testing
import TestSupport
@testable import DiagStore

/// Readers mark a store while they read it, and diagd's search index builder gives way to them
/// for a bounded time (`StoreReaders`, `CPUSharePacer`).
@Suite struct StoreReadersTests {
    @Test func aReadOnlyStoreMarksTheStoreWhileItIsOpenAndAWriterDoesNot() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        let writer = try LogStore.open(at: url, create: true)
        try writer.append([StoreTestRecords.full(0)])
        let presence = try #require(StoreReaders.Presence(storeURL: url))
        #expect(!presence.readersPresent)
        do {
            let reader = try LogStore.openForReading(at: url)
            #expect(presence.readersPresent)
            let second = try LogStore.open(at: url, options: .readOnly)
            #expect(presence.readersPresent)
            #expect(try reader.records().all().count == 1)
            withExtendedLifetime(second) {}
        }
        #expect(!presence.readersPresent, "the mark goes with the last reader")
        // `diag show` keeps the cursor and lets the store go: the cursor holds the mark.
        var cursor: RecordCursor? = try LogStore.openForReading(at: url).records()
        #expect(presence.readersPresent)
        #expect(try cursor?.all().count == 1)
        cursor = nil
        #expect(!presence.readersPresent)
        // Looking takes the lock for an instant and gives it back: a reader after it marks again.
        let again = try LogStore.openForReading(at: url)
        #expect(presence.readersPresent)
        withExtendedLifetime(again) {}
        withExtendedLifetime(writer) {}
    }

    @Test func aReaderNeverCreatesTheFileAndReadsWithoutIt() throws {
        let folder = try TemporaryDirectory()
        let url = try Self.storeOfOneRecord(in: folder)
        let reader = try LogStore.openForReading(at: url)
        #expect(try reader.records().all().count == 1)
        #expect(!FileManager.default.fileExists(atPath: StoreLayout.readersLockURL(url).path))
    }

    /// A stranger's store may hold anything by that name: a FIFO must not hang the reader (it is
    /// opened without blocking and refused as no regular file), a link is not followed.
    @Test func aFIFOOrALinkByThatNameIsNotMarkedAndDoesNotHang() throws {
        let folder = try TemporaryDirectory()
        let url = try Self.storeOfOneRecord(in: folder)
        let lock = StoreLayout.readersLockURL(url).path
        #expect(mkfifo(lock, 0o644) == 0)
        #expect(StoreReaders.Mark(storeURL: url) == nil)
        #expect(try LogStore.openForReading(at: url).records().all().count == 1)
        try FileManager.default.removeItem(atPath: lock)
        let target = try folder.write("elsewhere", "")
        try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: target)
        #expect(StoreReaders.Mark(storeURL: url) == nil)
        #expect(try LogStore.openForReading(at: url).records().all().count == 1)
    }

    /// A closed store of one record in `folder`, no diagd ever on it (so no `readers.lock`).
    static func storeOfOneRecord(in folder: TemporaryDirectory) throws -> URL {
        let url = folder.file("s.logarchive")
        let writer = try LogStore.open(at: url, create: true)
        try writer.append([StoreTestRecords.full(0)])
        try writer.close()
        return url
    }

    /// A store whose first chunk (2,000 records) is closed, unsealed and unindexed, as diagd
    /// leaves one for its finisher; the open chunk holds one more record.
    static func storeWithAClosedChunk(in folder: TemporaryDirectory) throws -> (LogStore, URL) {
        let url = folder.file("s.logarchive")
        let store = try LogStore.open(at: url, create: true, options: .init(sealOnRotation: false))
        try store.append((0..<2_000).map { StoreTestRecords.full($0) })
        try store.rotate()
        try store.append([StoreTestRecords.full(2_000)])
        return (store, url)
    }

    @Test func thePacerGivesWayUntilTheReaderLeaves() {
        let reader = Flag()
        var pacer = CPUSharePacer(share: 1, yieldsTo: { reader.present }, maximumYield: 60, minimumRun: 60, yieldPoll: 0.005)
        let leaves = Thread { Thread.sleep(forTimeInterval: 0.3); reader.leave() }
        leaves.start()
        for _ in 0..<CPUSharePacer.stride { pacer.pace() }
        let stillThere = reader.present
        #expect(!stillThere, "pace() returned while the reader was still there")
        #expect(pacer.yielded >= 0.25 && pacer.yielded < 30, "\(pacer.yielded)")
        let before = pacer.yielded
        for _ in 0..<CPUSharePacer.stride { pacer.pace() }
        #expect(pacer.yielded == before, "no reader, no wait")
    }

    @Test func aReaderThatStaysIsGivenWayToForABoundedTimeOnly() {
        var pacer = CPUSharePacer(share: 1, yieldsTo: { true }, maximumYield: 0.2, minimumRun: 60, yieldPoll: 0.01)
        for _ in 0..<CPUSharePacer.stride { pacer.pace() }
        let first = pacer.yielded
        #expect(first >= 0.2 && first < 10, "\(first)")
        // Within `minimumRun` of a wait that reached its bound, the work goes on.
        for _ in 0..<(10 * CPUSharePacer.stride) { pacer.pace() }
        #expect(pacer.yielded == first)
        var never = CPUSharePacer(share: 1, yieldsTo: { false })
        for _ in 0..<(10 * CPUSharePacer.stride) { never.pace() }
        #expect(never.yielded == 0)
    }

    /// `minimumRun` is for a reader who stays: once a look finds nobody, the next reader (the
    /// next query) is given way to again, within `minimumRun` of a wait that reached its bound.
    @Test func theNextReaderIsGivenWayToAgainOnceTheOneWhoStayedHasLeft() {
        let reader = Flag()
        var pacer = CPUSharePacer(share: 1, yieldsTo: { reader.present }, maximumYield: 0.2, minimumRun: 60, yieldPoll: 0.01)
        for _ in 0..<CPUSharePacer.stride { pacer.pace() }
        let first = pacer.yielded
        #expect(first >= 0.2 && first < 10, "\(first)")
        for _ in 0..<(2 * CPUSharePacer.stride) { pacer.pace() }
        #expect(pacer.yielded == first, "within minimumRun, the reader who stays is not waited for")
        reader.leave()
        for _ in 0..<CPUSharePacer.stride { pacer.pace() }
        reader.come()
        for _ in 0..<CPUSharePacer.stride { pacer.pace() }
        #expect(pacer.yielded >= first + 0.2, "the next reader is waited for: \(pacer.yielded)")
    }

    /// The finisher diagd runs: while a reader has the store open, the closed chunk is neither
    /// sealed nor search-indexed; once the reader is gone, it is both.
    @Test func theFinisherNeitherSealsNorIndexesWhileAReaderReads() throws {
        let folder = try TemporaryDirectory()
        let (store, url) = try Self.storeWithAClosedChunk(in: folder)
        let finisher = ClosedChunkFinisher(store: store, yieldsToReaders: true, readerYield: 600, sealYield: 600)
        var reader: LogStore? = try LogStore.openForReading(at: url)
        finisher.requestPass()
        Thread.sleep(forTimeInterval: 1)
        #expect(!finisher.isIdle)
        #expect(store.info.chunks.first?.sealed == false, "the seal waits for the reader")
        #expect(store.info.chunks.first?.searchIndex == false)
        #expect(try reader?.records().all().count == 2_001)
        reader = nil
        try finisher.wait()
        #expect(store.info.chunks.first?.sealed == true)
        #expect(store.info.chunks.first?.searchIndex == true)
        #expect(store.closedChunksAwaitingSearchIndex == 0)
    }

    /// A reader who stays (a `--follow`) holds a seal back `sealYield` seconds, no longer; the
    /// search index, with its longer bound, still waits.
    @Test func aReaderWhoStaysHoldsTheSealBackForItsBoundOnly() throws {
        let folder = try TemporaryDirectory()
        let (store, url) = try Self.storeWithAClosedChunk(in: folder)
        let finisher = ClosedChunkFinisher(store: store, yieldsToReaders: true, readerYield: 600, sealYield: 0.5)
        let reader = try LogStore.openForReading(at: url)
        let start = ContinuousClock.now
        finisher.requestPass()
        #expect(StoreTestFiles.waitFor { store.info.chunks.first?.sealed == true })
        let waited = ContinuousClock.now - start
        #expect(waited >= .milliseconds(450), "the seal did not wait for the reader: \(waited)")
        #expect(store.info.chunks.first?.searchIndex == false)
        #expect(!finisher.isIdle)
        finisher.cancel()
        try finisher.wait()
        withExtendedLifetime(reader) {}
    }

    /// The seal gives way inside its statements too, not only before them: a pace called from
    /// SQLite's progress handler while the indexes of a big chunk are built.
    @Test func aSealIsPacedFromInsideItsStatements() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        let store = try LogStore.open(at: url, create: true, options: .init(sealOnRotation: false))
        try store.append((0..<20_000).map { StoreTestRecords.full($0) })
        try store.rotate()
        var before = 0, inside = 0
        #expect(try store.sealPendingChunks(pace: { lookNow in if lookNow { before += 1 } else { inside += 1 } }) == 1)
        #expect(before == 1)
        #expect(inside > 100, "\(inside) calls from inside the seal")
        #expect(store.info.chunks.first?.sealed == true)
        #expect(try store.records().all().count == 20_000)
    }

    /// diagd stops by cancelling the finisher and waiting for it: a wait for readers (here up to
    /// 10 minutes) must not hold the stop.
    @Test func aCancelEndsTheWaitForReaders() throws {
        let folder = try TemporaryDirectory()
        let (store, url) = try Self.storeWithAClosedChunk(in: folder)
        let finisher = ClosedChunkFinisher(store: store, yieldsToReaders: true, readerYield: 600)
        let reader = try LogStore.openForReading(at: url)
        finisher.requestPass()
        Thread.sleep(forTimeInterval: 0.5)
        #expect(!finisher.isIdle)
        finisher.cancel()
        let stopped = DispatchSemaphore(value: 0)
        Thread { _ = try? finisher.wait(); stopped.signal() }.start()
        #expect(stopped.wait(timeout: .now() + 60) == .success, "the finisher still waits for the reader after cancel()")
        // The chunk being worked on is finished (`cancel`'s contract: here its seal, which the
        // cancel let go on), the reader still there; no search index is started after it.
        #expect(store.info.chunks.first?.sealed == true)
        #expect(store.info.chunks.first?.searchIndex == false)
        withExtendedLifetime(reader) {}
    }
}

/// A reader's presence, set on one thread and read on another.
private final class Flag: Sendable {
    private let value = Atomic(true)
    var present: Bool { value.load(ordering: .acquiring) }
    func leave() { value.store(false, ordering: .releasing) }
    func come() { value.store(true, ordering: .releasing) }
}
