import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

/// `LogStore.Options.foldsWALAtSeal` (diagd): the open chunk's WAL is not copied into the file
/// while records come in, nor when the chunk closes; the seal folds it, a closed chunk's
/// connection stays open until then (at most `maximumWaitingFolds`), and readers read the
/// chunk through its WAL meanwhile.
@Suite struct WALFoldTests {
    private func waitingFolds(_ store: LogStore) -> [String] {
        store.lock.withLock { store.state.waitingFolds.keys.sorted() }
    }

    /// Appends `batches` batches of 200 records; a chunk closes every 512 KiB.
    private func fill(_ store: LogStore, batches: Range<Int>) throws {
        for batch in batches {
            try store.append((0..<200).map { StoreTestRecords.full(batch * 200 + $0) })
        }
    }

    @Test func aClosedChunkIsReadThroughItsWALUntilTheSealFoldsIt() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        let store = try LogStore.open(at: url, create: true,
                                      options: .init(chunkSizeLimit: 512 << 10, sealOnRotation: false, foldsWALAtSeal: true))
        try fill(store, batches: 0..<8)
        let closed = try #require(store.info.chunks.first)
        #expect(store.info.chunks.count >= 2, "the first chunk closed")
        let path = StoreLayout.chunkURL(url, file: closed.file).path
        // Nothing copied into the file while it was written, nor when it closed: all in its WAL.
        #expect(StoreTestFiles.size(path) <= 8 * 4096, "\(StoreTestFiles.size(path)) bytes in the file")
        #expect(StoreTestFiles.size(path + "-wal") > 512 << 10)
        #expect(waitingFolds(store) == [closed.file])
        // A reader (another connection, as diag show is) reads it whole meanwhile.
        let all = try LogStore.openForReading(at: url).records(filter: StoreFilter()).all()
        #expect(all.count == 1_600)
        #expect(all.map(\.eventMessage) == (0..<1_600).map { StoreTestRecords.full($0).eventMessage })

        #expect(try store.sealPendingChunks() >= 1)
        #expect(waitingFolds(store).isEmpty)
        #expect(StoreTestFiles.size(path + "-wal") == 0, "folded and removed with the last connection")
        #expect(StoreTestFiles.size(path) > 512 << 10)
        let database = try Database(path: path, options: .init(readOnly: true))
        #expect(try database.scalarText("PRAGMA integrity_check") == "ok")
        #expect(try database.scalarInt("SELECT count(*) FROM records") == closed.recordCount)
        #expect(try LogStore.openForReading(at: url).records(filter: StoreFilter()).all() == all)
        try store.close()
    }

    @Test func pastTheBoundTheOldestIsFoldedOnAThreadAndClosingFoldsTheRest() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        let store = try LogStore.open(at: url, create: true,
                                      options: .init(chunkSizeLimit: 256 << 10, sealOnRotation: false, foldsWALAtSeal: true))
        try fill(store, batches: 0..<40)
        let chunks = store.info.chunks
        #expect(chunks.count > LogStore.maximumWaitingFolds + 2)
        let waiting = waitingFolds(store)
        #expect(waiting.count == LogStore.maximumWaitingFolds)
        // The newest closed chunks wait; the older ones were folded on a thread of their own.
        let closedFiles = chunks.dropLast().map(\.file)
        #expect(waiting == Array(closedFiles.suffix(LogStore.maximumWaitingFolds)))
        for chunk in closedFiles.dropLast(LogStore.maximumWaitingFolds) {
            let path = StoreLayout.chunkURL(url, file: chunk).path
            #expect(StoreTestFiles.waitFor { StoreTestFiles.size(path + "-wal") == 0 && StoreTestFiles.size(path) > 128 << 10 }, "\(chunk) folded")
        }
        // The open chunk's WAL too: left, it would be read back by every reader of the stopped store.
        #expect(StoreTestFiles.size(StoreLayout.chunkURL(url, file: chunks.last!.file).path + "-wal") > 0)
        try store.close()
        #expect(waitingFolds(store).isEmpty)
        for chunk in chunks.map(\.file) {
            #expect(StoreTestFiles.size(StoreLayout.chunkURL(url, file: chunk).path + "-wal") == 0, "\(chunk) folded at the close")
        }
        let reopened = try LogStore.openForReading(at: url)
        #expect(try reopened.records(filter: StoreFilter()).all().count == 8_000)
    }
}
