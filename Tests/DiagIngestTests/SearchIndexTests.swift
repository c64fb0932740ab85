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

    /// An index build killed in the middle of a chunk (`diag index`, SIGKILL once it has finished
    /// one chunk and is on the next) leaves that chunk as it was: no index claimed in Info.json and
    /// no half-built one used, its records found by a scan. diagd, started on the store, builds what
    /// is missing, and the answers are the same before and after.
    @Test func anIndexBuildKilledInTheMiddleResumes() throws {
        let directory = try TemporaryDirectory("diagd-index-killed")
        let storePath = directory.file("store").path
        let store = try LogStore.open(at: URL(fileURLWithPath: storePath), create: true, options: .init(chunkSizeLimit: 2 << 20))
        var expected = 0
        for batch in 0..<40 {
            try store.append((0..<2_000).map { index in
                let number = batch * 2_000 + index
                if number % 97 == 0 { expected += 1 }
                return LogRecord(timestamp: 1_780_000_000_000_000_000 + Int64(number) * 1_000_000, messageType: .default,
                                 eventMessage: "record \(number) " + (number % 97 == 0 ? "Killed-Mid-Build " : "") + "word\(number % 7919) \(String(repeating: "z", count: 60))")
            })
        }
        try store.close()
        let sealed = try LogStore.open(at: URL(fileURLWithPath: storePath), options: .readOnly).info.chunks.dropLast()
        #expect(sealed.count >= 3, "the records should have filled several chunks")
        #expect(sealed.allSatisfy { $0.sealed && !$0.searchIndex })

        func found() throws -> Int {
            let shown = try run(BuiltProducts.path("diag"), ["show", storePath, "--predicate", "message contains[cd] \"killed-mid-build\"", "--style", "ndjson"])
            #expect(shown.status == 0, "\(shown.stderr)")
            return shown.stdout.split(separator: "\n").count
        }
        #expect(try found() == expected)

        // `diag index`, killed once one chunk has its index and the next one's build has begun.
        let index = Process()
        index.executableURL = URL(fileURLWithPath: BuiltProducts.path("diag"))
        index.arguments = ["index", "--store", storePath]
        index.standardOutput = FileHandle.nullDevice
        index.standardError = FileHandle.nullDevice
        try index.run()
        let deadline = Date(timeIntervalSinceNow: 60)
        var indexedBeforeKill = 0
        while Date() < deadline, index.isRunning {
            indexedBeforeKill = (try? LogStore.open(at: URL(fileURLWithPath: storePath), options: .readOnly).info.chunks.filter(\.searchIndex).count) ?? 0
            if indexedBeforeKill >= 1 { break }
            usleep(2_000)
        }
        kill(index.processIdentifier, SIGKILL)
        index.waitUntilExit()
        let left = try LogStore.open(at: URL(fileURLWithPath: storePath), options: .readOnly).info.chunks.dropLast()
        #expect(left.contains { $0.searchIndex }, "the build should have finished a chunk before the kill")
        #expect(left.contains { !$0.searchIndex }, "the kill should have come before the last chunk's index")
        #expect(try found() == expected)

        // diagd takes the store up again and builds the rest.
        let daemon = try RunningDaemon(arguments: ["--chunk-size", "2M"], storePath: storePath, directory: directory)
        let chunks = waitUntilIndexed(storePath, atLeast: sealed.count + 1)
        for chunk in chunks.dropLast() {
            #expect(chunk.sealed && chunk.searchIndex, "\(chunk.file): sealed \(chunk.sealed), search index \(chunk.searchIndex)")
        }
        #expect(daemon.stop() == 0)
        #expect(try found() == expected)
    }
}
