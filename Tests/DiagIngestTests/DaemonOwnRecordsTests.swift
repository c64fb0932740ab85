import DiagModel
import Foundation
import Glibc
import Testing
import TestSupport

/// diagd's own records carry the thread that reported them, as every client's do.
@Suite struct DaemonOwnRecordsTests {
    @Test func diagdsRecordsHaveTheirThreadID() throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop() }
        let client = try DaemonClient(path: daemon.socketPath)
        client.write(#"{"sync":1}"# + "\n")
        #expect(client.readReply()?["synced"] != nil)
        let own = try daemon.storedRecords().filter { $0.process == "diagd" }
        try #require(!own.isEmpty, "diagd logged nothing of its start")
        let threads = Set(try FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.process.processIdentifier)/task").compactMap { Int64($0) })
        for record in own {
            let thread = try #require(record.threadID)
            #expect(thread != 0)
            // One of diagd's threads (those that report at start live as long as diagd).
            #expect(threads.contains(thread), "thread \(thread) is not one of diagd's \(threads)")
            #expect(record.senderImagePath?.hasSuffix("/diagd") == true)
        }
    }
}
