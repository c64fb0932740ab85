import DiagModel
import DiagStore
import Foundation
import Glibc
import Testing
import TestSupport

@Suite(.serialized) struct DurabilityTests {
    /// Writes bursts with a sync every 500 records from a thread while the test kills diagd -9;
    /// after a restart every acknowledged record is there and every chunk is sound.
    @Test func everyAcknowledgedRecordSurvivesKillNineDuringABurst() throws {
        let daemon = try RunningDaemon()
        let acknowledged = AcknowledgedCount()
        let socketPath = daemon.socketPath
        let writer = Thread {
            guard let client = try? DaemonClient(path: socketPath) else { return }
            var sent = 0
            for sync in 1...400 {
                var burst = ""
                for _ in 0..<500 {
                    burst += "{\"eventMessage\":\"burst \(sent)\",\"subsystem\":\"com.example.crash\"}\n"
                    sent += 1
                }
                burst += "{\"sync\":\(sync)}\n"
                client.write(burst)
                guard client.waitForSync(Int64(sync)) != nil else { return }
                acknowledged.set(sent)
            }
        }
        writer.start()
        while acknowledged.value < 20_000 { usleep(2_000) }
        daemon.killHard()
        while !acknowledged.isFinal(after: 0.3) { usleep(10_000) }
        // Every reply read before the connection ended came from the daemon before it died.
        let acknowledgedAtKill = acknowledged.value
        try daemon.start()
        #expect(daemon.stop() == 0)
        let messages = Set(try daemon.clientRecords().map(\.eventMessage))
        let missing = (0..<acknowledgedAtKill).filter { !messages.contains("burst \($0)") }
        #expect(missing.isEmpty, "acknowledged records missing after kill -9: \(missing.prefix(10))")
        let store = try LogStore.open(at: URL(fileURLWithPath: daemon.storePath), options: .readOnly)
        #expect(!store.info.chunks.isEmpty)
        for chunk in store.info.chunks {
            // Where the chunk is now: a burst's chunk not sealed yet is under Persist/Burst/.
            let path = StoreLayout.currentChunkURL(URL(fileURLWithPath: daemon.storePath), file: chunk.file).path
            let database = try Database(path: path, options: .init(readOnly: true, create: false))
            #expect(try database.scalarText("PRAGMA integrity_check") == "ok")
        }
    }
}

/// The count of records the writer thread saw acknowledged, and when it last changed.
final class AcknowledgedCount: @unchecked Sendable {
    // Safe: every access holds `lock`.
    private let lock = NSLock()
    private var count = 0
    private var changed = Date()
    func set(_ value: Int) { lock.withLock { count = value; changed = Date() } }
    var value: Int { lock.withLock { count } }
    /// True once the count has not moved for `seconds` (the writer thread has stopped).
    func isFinal(after seconds: Double) -> Bool { lock.withLock { Date().timeIntervalSince(changed) > seconds } }
}
