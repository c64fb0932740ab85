import DiagModel
import DiagStore
import Foundation
import Testing
import TestSupport

/// Issue 15, "search indexes without asking", under load: a chunk diagd closes gets its seal and
/// search index while records keep arriving, without waiting for a lull. Before, diagd finished
/// closed chunks only once records had stopped for a second or three of them waited, so a busy
/// daemon's store was mostly unindexed and every query scanned it.
@Suite(.serialized) struct IndexUnderIngestTests {
    /// Records about 300 bytes each, one per sync, sent without a pause longer than diagd's
    /// maintenance interval (a second): diagd never sees a lull.
    @Test func closedChunksAreIndexedWhileRecordsKeepArriving() throws {
        let daemon = try RunningDaemon(arguments: ["--chunk-size", "64K"])
        let client = try DaemonClient(path: daemon.socketPath)
        let store = URL(fileURLWithPath: daemon.storePath)
        var sent = 0
        var chunks: [ChunkInfo] = []
        var indexedWhileSending = false
        // Generous: at one record every 10 ms a 64K chunk takes about two seconds to fill, so
        // the first closed chunk has at least the time two more take to fill (and far more
        // than a chunk of 64K takes to index), before the old rule (three closed) would start.
        while sent < 6_000 {
            sent += 1
            client.write("{\"eventMessage\":\"continuous \(sent) zebra-\(sent % 40) \(String(repeating: "z", count: 240))\"}\n{\"sync\":\(sent)}\n")
            #expect(client.waitForSync(Int64(sent)) != nil)
            usleep(10_000)
            guard sent % 20 == 0, let info = try? LogStore.open(at: store, options: .readOnly).info else { continue }
            chunks = info.chunks
            // Stop at the first closed chunk indexed, or once three are closed (the old rule's
            // threshold: from then on the old daemon would have indexed them too).
            if chunks.dropLast().contains(where: { $0.sealed && $0.searchIndex }) {
                indexedWhileSending = chunks.count <= 3
                break
            }
            if chunks.count > 3 { break }
        }
        #expect(indexedWhileSending, "closed chunks while sending: \(chunks.dropLast().map { "\($0.file) sealed \($0.sealed) indexed \($0.searchIndex)" })")
        #expect(daemon.stop() == 0)
    }
}
