import DiagModel
import DiagStore
import Foundation
import Glibc
import Testing
import TestSupport

@Suite(.serialized) struct DiskFullTests {
    /// Records and syncs until the writer fails; the failed batch is held (its sync waits), and
    /// the next records are refused with an error reply. Returns the records acknowledged, the
    /// last sync sent and the refusal (nil if 40,000 records went in).
    static func sendUntilRefused(_ client: DaemonClient) -> (acknowledged: Int, sync: Int64, refusal: String?) {
        var acknowledged = 0
        var sent = 0
        var sync: Int64 = 0
        let padding = String(repeating: "x", count: 300)
        writing: while sent < 40_000 {
            var lines = ""
            for _ in 0..<200 {
                lines += "{\"eventMessage\":\"full \(sent) \(padding)\"}\n"
                sent += 1
            }
            sync += 1
            client.write(lines + "{\"sync\":\(sync)}\n")
            while let reply = client.readReply(timeout: 2) {
                if reply["synced"]?.int64Value == sync { acknowledged = sent; continue writing }
                if let error = reply["error"]?.stringValue, error.contains("refuses writes") {
                    return (acknowledged, sync, error)
                }
            }
        }
        return (acknowledged, sync, nil)
    }

    /// The sealing and indexing of closed chunks fails while the disk is full; it is tried again
    /// after 1, 2, 4 … s (up to 5 minutes), not at once: it was tried twice a second, each time
    /// logging the error, for as long as the disk stayed full.
    @Test(.enabled(if: SmallFileSystem.canMount, "mounting a tmpfs needs root"))
    func theClosedChunksFinisherWaitsLongerAfterEachFailureOnAFullDisk() throws {
        let disk = try #require(SmallFileSystem(bytes: 8 << 20))
        let sockets = try TemporaryDirectory("diskfull-finisher")
        let daemon = try RunningDaemon(arguments: ["--max-size", "1G", "--chunk-size", "1M"], storePath: disk.path + "/store", directory: sockets)
        let client = try DaemonClient(path: daemon.socketPath)
        #expect(Self.sendUntilRefused(client).refusal != nil, "the store never filled up")
        func failures() -> Int { daemon.stderr.components(separatedBy: "sealing or indexing a closed chunk failed").count - 1 }
        // The finisher's first failure may come a moment after the writer's.
        let deadline = Date(timeIntervalSinceNow: 30)
        while failures() == 0 && Date() < deadline { usleep(100_000) }
        let first = failures()
        #expect(first >= 1, "the finisher never failed: \(daemon.stderr.suffix(2000))")
        // Tries at about +1, +3 and +7 s after a failure: at most 3 more in 6.5 s.
        usleep(6_500_000)
        #expect(failures() - first <= 3, "\(failures() - first) failures in 6.5 s")
        #expect(daemon.stderr.contains("tried again in 1 s"))
        // Once space returns, every closed chunk is sealed and indexed, without a restart: the
        // chunks after the one whose seal failed stayed marked as being sealed, and no later
        // pass took them.
        try disk.resize(bytes: 64 << 20)
        let info = URL(fileURLWithPath: disk.path + "/store/Info.json")
        func unfinished() throws -> [String] {
            let chunks = try JSONDecoder().decode(StoreInfo.self, from: Data(contentsOf: info)).chunks
            return chunks.dropLast().filter { !$0.sealed || !$0.searchIndex }.map(\.file)
        }
        // The finisher waits out its last delay (under 5 minutes): a record every second keeps
        // the writer's maintenance going meanwhile.
        let finished = Date(timeIntervalSinceNow: 300)
        var probe = 0
        while try !unfinished().isEmpty && Date() < finished {
            probe += 1
            client.write("{\"eventMessage\":\"space again \(probe)\"}\n")
            sleep(1)
        }
        let left = try unfinished()
        #expect(left.isEmpty, "closed chunks left unsealed or unindexed: \(left)")
        #expect(daemon.stop() == 0)
    }

    @Test(.enabled(if: SmallFileSystem.canMount, "mounting a tmpfs needs root"))
    func aFullDiskRefusesRecordsKeepsWhatIsStoredAndResumesWhenSpaceReturns() throws {
        let disk = try #require(SmallFileSystem(bytes: 6 << 20))
        let sockets = try TemporaryDirectory("diskfull")
        let storePath = disk.path + "/store"
        let daemon = try RunningDaemon(arguments: ["--max-size", "1G"], storePath: storePath, directory: sockets)
        // Leave about 400 KB free.
        var info = statvfs()
        statvfs(disk.path, &info)
        let free = Int(info.f_bavail) * Int(info.f_frsize)
        let filler = disk.path + "/filler"
        try Data(count: max(0, free - (400 << 10))).write(to: URL(fileURLWithPath: filler))

        let client = try DaemonClient(path: daemon.socketPath)
        let (acknowledged, lastSync, refusal) = Self.sendUntilRefused(client)
        var sync = lastSync
        let refused = try #require(refusal, "the store never filled up after \(acknowledged) records")
        #expect(refused.contains("retry later"))
        // Says which file system is full, not only SQLite's "database or disk is full".
        #expect(refused.contains("the file system holding \(storePath)/Persist is full"), "\(refused)")

        try FileManager.default.removeItem(atPath: filler)
        var resumed = false
        let deadline = Date(timeIntervalSinceNow: 30)
        var probe = 0
        while !resumed && Date() < deadline {
            sync += 1
            probe += 1
            client.write("{\"eventMessage\":\"resumed \(probe)\"}\n{\"sync\":\(sync)}\n")
            while let reply = client.readReply(timeout: 2) {
                if reply["synced"]?.int64Value == sync { break }
            }
            let stats = try DaemonClient(path: daemon.socketPath)
            stats.write("{\"stats\":true}\n")
            let counters = stats.readReply()?["stats"]?.objectValue
            resumed = counters?["persisted"]?.int64Value ?? 0 > Int64(acknowledged) && probe > 1
            if !resumed { usleep(200_000) }
        }
        #expect(resumed, "writes did not resume once space returned")
        #expect(daemon.stop() == 0)
        let messages = Set(try daemon.clientRecords().map { $0.eventMessage.split(separator: " ").prefix(2).joined(separator: " ") })
        let missing = (0..<acknowledged).filter { !messages.contains("full \($0)") }
        #expect(missing.isEmpty, "acknowledged records lost: \(missing.prefix(5))")
        #expect(messages.contains("resumed \(probe)"))
        let store = try LogStore.open(at: URL(fileURLWithPath: storePath), options: .readOnly)
        for chunk in store.info.chunks {
            // Where the chunk is now: a burst's chunk not sealed yet is under Persist/Burst/.
            let path = StoreLayout.currentChunkURL(URL(fileURLWithPath: storePath), file: chunk.file).path
            let database = try Database(path: path, options: .init(readOnly: true, create: false))
            #expect(try database.scalarText("PRAGMA integrity_check") == "ok")
        }
        let own = try daemon.storedRecords().filter { $0.process == "diagd" }.map(\.eventMessage)
        #expect(own.contains { $0.contains("cannot write to the store") })
        #expect(own.contains { $0.contains("takes writes again") })
    }
}
