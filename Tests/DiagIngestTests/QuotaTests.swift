import DiagModel
import DiagStore
import Foundation
import Testing
import TestSupport

@Suite(.serialized) struct QuotaTests {
    /// Writes `count` records named `prefix N`, `perSync` per transaction, waiting for each sync.
    private func write(_ client: DaemonClient, prefix: String, count: Int, perSync: Int, timestamp: Int64? = nil, firstSync: Int64) -> Int64 {
        var sync = firstSync
        var index = 0
        let padding = String(repeating: "p", count: 200)
        while index < count {
            var lines = ""
            for _ in 0..<min(perSync, count - index) {
                let time = timestamp.map { ",\"timestamp\":\($0)" } ?? ""
                lines += "{\"eventMessage\":\"\(prefix) \(index) \(padding)\"\(time)}\n"
                index += 1
            }
            client.write(lines + "{\"sync\":\(sync)}\n")
            _ = client.waitForSync(sync)
            sync += 1
        }
        return sync
    }

    /// The numbers N of the stored records named `prefix N`.
    private func numbers(_ records: [LogRecord], _ prefix: String) -> [Int] {
        records.compactMap { record in
            let parts = record.eventMessage.split(separator: " ")
            guard parts.count >= 2, parts[0] == prefix else { return nil }
            return Int(parts[1])
        }.sorted()
    }

    @Test func theSizeQuotaDropsWholeOldestChunksAndNothingElse() throws {
        let daemon = try RunningDaemon(arguments: ["--chunk-size", "64K", "--max-size", "300K"])
        let client = try DaemonClient(path: daemon.socketPath)
        _ = write(client, prefix: "q", count: 6000, perSync: 100, firstSync: 1)
        let storeURL = URL(fileURLWithPath: daemon.storePath)
        let deadline = Date(timeIntervalSinceNow: 30)
        var total = Int64.max
        while Date() < deadline {
            // The daemon removes chunks meanwhile: a reader may find one gone, and tries again.
            if let chunks = try? LogStore.open(at: storeURL, options: .readOnly).info.chunks {
                total = chunks.reduce(0) { $0 + $1.byteCount }
                if total <= 300 << 10 { break }
            }
            usleep(100_000)
        }
        #expect(daemon.stop() == 0)
        let kept = numbers(try daemon.clientRecords(), "q")
        #expect(!kept.isEmpty && kept.first! > 0, "the oldest records should have been dropped")
        #expect(kept.count == 6000 - kept.first!, "only a prefix of the oldest records may go; kept \(kept.count) from \(kept.first ?? -1)")
        let info = try LogStore.open(at: storeURL, options: .readOnly).info
        #expect(info.chunks.reduce(0) { $0 + $1.byteCount } <= (300 + 200) << 10)
        #expect(info.chunks.map(\.sequence).first! > 1)
        // The daemon says so (its record of it may itself have expired with a later chunk).
        #expect(daemon.stderr.contains("quota: dropped"))
    }

    @Test func theAgeQuotaDropsChunksWhoseRecordsAreAllTooOld() throws {
        let daemon = try RunningDaemon(arguments: ["--chunk-size", "64K", "--max-age", "1h"])
        let client = try DaemonClient(path: daemon.socketPath)
        let twoDaysAgo = Int64(Date().timeIntervalSince1970 - 2 * 86_400) * 1_000_000_000
        let next = write(client, prefix: "old", count: 1500, perSync: 100, timestamp: twoDaysAgo, firstSync: 1)
        _ = write(client, prefix: "new", count: 500, perSync: 100, firstSync: next)
        let storeURL = URL(fileURLWithPath: daemon.storePath)
        let deadline = Date(timeIntervalSinceNow: 30)
        while Date() < deadline {
            if let chunks = try? LogStore.open(at: storeURL, options: .readOnly).info.chunks, chunks.count < 2 || !chunks.map(\.sequence).elementsEqual(1...Int64(chunks.count)) { break }
            usleep(100_000)
        }
        #expect(daemon.stop() == 0)
        let records = try daemon.clientRecords()
        #expect(numbers(records, "new") == Array(0..<500))
        // The first chunk also holds diagd's own (recent) start-up record and the open chunk is
        // never removed, so what goes is whole chunks in between: one run of old records.
        let old = numbers(records, "old")
        let dropped = Set(0..<1500).subtracting(old).sorted()
        #expect(!dropped.isEmpty, "no chunk of old records was dropped")
        if let first = dropped.first, let last = dropped.last {
            #expect(dropped.count == last - first + 1, "dropped records are not one run of whole chunks")
        }
    }
}
