import DiagModel
import DiagStore
import Foundation
import Testing
import TestSupport

/// diagd gives every chunk it closes its message search index by itself, and a restart picks up
/// chunks left without one: nobody has to run `diag index`.
@Suite(.serialized) struct SearchIndexTests {
    /// Polls Info.json until every closed chunk is sealed and indexed; returns the chunks then.
    private func waitUntilIndexed(_ storePath: String, atLeast minimum: Int = 2, seconds: Double = 120) -> [ChunkInfo] {
        let deadline = Date(timeIntervalSinceNow: seconds)
        var chunks: [ChunkInfo] = []
        while Date() < deadline {
            if let info = try? LogStore.open(at: URL(fileURLWithPath: storePath), options: .readOnly).info {
                chunks = info.chunks
                if chunks.count >= minimum, chunks.dropLast().allSatisfy({ $0.sealed && $0.searchIndex }) { return chunks }
            }
            usleep(100_000)
        }
        return chunks
    }

    @Test func diagdIndexesTheChunksItCloses() throws {
        let daemon = try RunningDaemon(arguments: ["--chunk-size", "64K"])
        let client = try DaemonClient(path: daemon.socketPath)
        // Ten transactions (a sync after each): a chunk closes after the batch that fills it.
        for batch in 0..<10 {
            var lines = ""
            for index in batch * 300..<(batch + 1) * 300 {
                lines += "{\"eventMessage\":\"indexed record \(index) zebra-\(index % 50) \(String(repeating: "x", count: 100))\"}\n"
            }
            client.write(lines + "{\"sync\":\(batch + 1)}\n")
            #expect(client.waitForSync(Int64(batch + 1)) != nil)
        }
        let chunks = waitUntilIndexed(daemon.storePath, atLeast: 3)
        #expect(chunks.count > 2, "the records should have filled several 64K chunks")
        for chunk in chunks.dropLast() {
            #expect(chunk.sealed && chunk.searchIndex, "\(chunk.file): sealed \(chunk.sealed), search index \(chunk.searchIndex)")
        }
        // The index answers the same records as a scan of the same store's NDJSON would.
        let shown = try run(BuiltProducts.path("diag"), ["show", daemon.storePath, "--predicate", "message contains[cd] \"ZEBRA-7 \"", "--style", "ndjson"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.split(separator: "\n").count == 60)
        #expect(daemon.stop() == 0)
    }

    @Test func aRestartIndexesWhatWasLeftUnindexed() throws {
        let directory = try TemporaryDirectory("diagd-index-resume")
        let storePath = directory.file("store").path
        // Sealed chunks without a search index, as an older diagd (or a killed index build) left them.
        let store = try LogStore.open(at: URL(fileURLWithPath: storePath), create: true, options: .init(chunkSizeLimit: 64 << 10))
        for batch in 0..<10 {
            try store.append((0..<300).map { index in
                LogRecord(timestamp: 1_780_000_000_000_000_000 + Int64(batch * 300 + index) * 1_000_000, messageType: .default,
                          eventMessage: "left behind \(batch * 300 + index) \(String(repeating: "y", count: 100))")
            })
        }
        try store.close()
        let left = try LogStore.open(at: URL(fileURLWithPath: storePath), options: .readOnly).info.chunks
        #expect(left.dropLast().contains { $0.sealed && !$0.searchIndex })

        let daemon = try RunningDaemon(arguments: ["--chunk-size", "64K"], storePath: storePath, directory: directory)
        let chunks = waitUntilIndexed(storePath)
        for chunk in chunks.dropLast() {
            #expect(chunk.sealed && chunk.searchIndex, "\(chunk.file): sealed \(chunk.sealed), search index \(chunk.searchIndex)")
        }
        #expect(daemon.stop() == 0)
    }
}
