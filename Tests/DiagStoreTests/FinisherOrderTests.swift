import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

/// diagd's finisher seals a chunk that closes while it builds another chunk's search index
/// from inside that build, not after it: a seal (the timestamp index a window query needs)
/// costs a fifth of a search index, and the last chunks of a burst waited behind the build of
/// the first one's index.
@Suite struct FinisherOrderTests {
    @Test func aChunkThatClosesDuringASearchIndexBuildIsSealedBeforeTheBuildEnds() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("s.logarchive")
        let store = try LogStore.open(at: url, create: true, options: .init(sealOnRotation: false))
        // The first chunk: sealed, its search index still to build (slowly: a twentieth of a core).
        try store.append((0..<30_000).map { StoreTestRecords.full($0) })
        try store.rotate()
        #expect(try store.sealPendingChunks() == 1)
        try store.append((30_000..<32_000).map { StoreTestRecords.full($0) })
        let first = try #require(store.info.chunks.first).file
        let second = try #require(store.info.chunks.last).file

        let finisher = ClosedChunkFinisher(store: store, cpuShare: 0.05, idleShare: 1)
        finisher.requestPass()
        // The build has claimed the first chunk (sealed already: the claim is its index's).
        let started = Date(timeIntervalSinceNow: 30)
        while !store.lock.withLock({ store.state.sealing.contains(first) }), Date() < started { usleep(2_000) }
        #expect(store.lock.withLock { store.state.sealing.contains(first) })

        // The second chunk closes while the build goes on.
        try store.rotate()
        let deadline = Date(timeIntervalSinceNow: 60)
        while store.info.chunks.last?.sealed != true, Date() < deadline { usleep(10_000) }
        let chunks = store.info.chunks
        #expect(chunks.last?.file == second && chunks.last?.sealed == true, "the closed chunk should have been sealed")
        #expect(chunks.first?.searchIndex == false, "the seal should not have waited for the first chunk's search index")

        // The rest of the build at a whole core; then both chunks are done.
        finisher.setWriterIdle(true)
        try finisher.wait()
        #expect(store.info.chunks.allSatisfy { $0.sealed && $0.searchIndex })
        #expect(store.closedChunksAwaitingSearchIndex == 0)
        #expect(try LogStore.openForReading(at: url).records().all().count == 32_000)
        try store.close()
    }
}
