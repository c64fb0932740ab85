import DiagForward
import DiagModel
import DiagStore
import Foundation
import Testing
import TestSupport

/// The follower against a real store: commit order across chunks, and chunks expired before
/// it read them.
@Suite struct StoreFollowerTests {
    func records(_ range: Range<Int>) -> [LogRecord] {
        range.map { LogRecord(timestamp: 1_764_409_201_000_000_000 - Int64($0), process: "p", eventMessage: "record \($0) é", metadata: ["n": .int(Int64($0))]) }
    }

    func readAll(_ follower: StoreFollower, from start: ForwardPosition, store: LogStore, batch: Int) throws -> ([LogRecord], ForwardPosition, [StoreFollower.Loss]) {
        var position = start
        var all: [LogRecord] = []
        var lost: [StoreFollower.Loss] = []
        while true {
            let next = try follower.read(after: position, limit: batch, chunks: store.info.chunks)
            all += next.records
            lost += next.lost
            if next.records.isEmpty && next.end == position { return (all, position, lost) }
            position = next.end
        }
    }

    @Test func readsCommittedRecordsInCommitOrderAcrossChunks() throws {
        let directory = try TemporaryDirectory()
        let store = try LogStore.open(at: directory.url, create: true, options: LogStore.Options(chunkSizeLimit: 1))
        // Timestamps go backwards: the order is the commit order, not time.
        for start in stride(from: 0, to: 500, by: 100) { try store.append(records(start..<start + 100)) }
        #expect(store.info.chunks.count == 5)
        let follower = StoreFollower(storeDirectory: directory.url)
        let (read, end, lost) = try readAll(follower, from: .beginning, store: store, batch: 37)
        #expect(read == records(0..<500))
        #expect(lost.isEmpty)
        // More records later: the follower continues from where it stopped, nothing twice.
        try store.append(records(500..<550))
        let (more, _, _) = try readAll(follower, from: end, store: store, batch: 1000)
        #expect(more == records(500..<550))
        // A new follower (a restart) from the saved position reads the same.
        let (again, _, _) = try readAll(StoreFollower(storeDirectory: directory.url), from: end, store: store, batch: 7)
        #expect(again == records(500..<550))
        #expect(try StoreFollower(storeDirectory: directory.url).endPosition(chunks: store.info.chunks) == ForwardPosition(chunk: 6, record: 50))
    }

    @Test func chunksExpiredBeforeTheyWereReadAreReportedLost() throws {
        let directory = try TemporaryDirectory()
        let store = try LogStore.open(at: directory.url, create: true, options: LogStore.Options(chunkSizeLimit: 1))
        for start in stride(from: 0, to: 400, by: 100) { try store.append(records(start..<start + 100)) }
        let follower = StoreFollower(storeDirectory: directory.url)
        let first = try follower.read(after: .beginning, limit: 30, chunks: store.info.chunks)
        #expect(first.records == records(0..<30))
        // The quota drops the oldest chunks while the forward is 30 records into the first.
        let newest = try #require(store.info.chunks.last)
        let expired = try store.expire(maxTotalBytes: newest.byteCount)
        #expect(expired.removedChunks.count == 3)
        let (rest, _, lost) = try readAll(follower, from: first.end, store: store, batch: 1000)
        // The open connection still reads the first chunk to its end: only chunks 2 and 3 are lost.
        #expect(rest == records(30..<100) + records(300..<400))
        #expect(lost == [StoreFollower.Loss(chunk: 2, records: 100), StoreFollower.Loss(chunk: 3, records: 100)])
        // A follower that never saw the expired chunks cannot count them.
        let fresh = try StoreFollower(storeDirectory: directory.url).read(after: ForwardPosition(chunk: 2, record: 5), limit: 10, chunks: store.info.chunks)
        #expect(fresh.lost == [StoreFollower.Loss(chunk: 2, records: nil)])
        #expect(fresh.records == records(300..<310))
    }
}
