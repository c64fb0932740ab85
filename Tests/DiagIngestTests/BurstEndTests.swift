@testable import DiagIngest
import DiagModel
import DiagStore
import Foundation
import Testing
import TestSupport

/// diagd's store (`ChunkedRecordStore`) writes a burst in 64 KiB pages; when records stop, no
/// small batch comes to end the burst, and the idle writer's maintenance does: the burst's last
/// chunk closes, is sealed into 4 KiB pages and gets its search index like every other, so that
/// a window over a repro's newest records reads indexes instead of scanning an open chunk.
@Suite struct BurstEndTests {
    @Test func anIdleWriterClosesTheBurstsChunkAndTheFinisherSealsAndIndexesIt() throws {
        let folder = try TemporaryDirectory("diagd-burst-end")
        let path = folder.file("store").path
        let store = try ChunkedRecordStore(directory: path, chunkSize: 64 << 20, maximumSize: 1 << 30, maximumAge: nil,
                                           report: { _, _ in })
        // One batch over 1 MiB, as the writer takes it under load: a burst starts.
        let records = (0..<8_000).map { index in
            LogRecord(timestamp: 1_780_000_000_000_000_000 + Int64(index) * 1_000_000, messageType: .default,
                      subsystem: "com.example.burst",
                      eventMessage: "burst record \(index) zebra-\(index % 50) \(String(repeating: "x", count: 200))")
        }
        let batch = PackedRecords(records)
        #expect(batch.bytes.count >= LogStore.Options.burstBatchBytes)
        try store.append(batch)
        let burstFolder = path + "/Persist/" + StoreLayout.burstFolder
        #expect(try FileManager.default.contentsOfDirectory(atPath: burstFolder).contains { $0.hasSuffix(".chunk.sqlite") })

        // Busy maintenance leaves the burst's chunk open for the next records.
        try store.maintain(idle: false)
        #expect(store.store.closedChunksAwaitingSearchIndex == 0)

        // The records stopped: the idle writer's maintenance ends the burst, and the pass it
        // starts seals and indexes the chunk.
        try store.maintain(idle: true)
        let deadline = Date(timeIntervalSinceNow: 60)
        while store.store.closedChunksAwaitingSearchIndex > 0, Date() < deadline {
            usleep(50_000)
            try store.maintain(idle: true)
        }
        let chunks = store.store.info.chunks
        #expect(chunks.count == 1)
        for chunk in chunks {
            #expect(chunk.sealed && chunk.searchIndex, "\(chunk.file): sealed \(chunk.sealed), search index \(chunk.searchIndex)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: burstFolder).isEmpty)
        try store.close()

        let shown = try run(BuiltProducts.path("diag"), ["show", path, "--predicate", "message contains[cd] \"ZEBRA-7 \"", "--style", "ndjson"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.split(separator: "\n").count == 160)
    }
}
