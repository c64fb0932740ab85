import DiagClient
import DiagModel
import Foundation
import Testing
import TestSupport

/// DiagClient's `DaemonSession` (what `diag stream`, `diag config` and `diag collect` use)
/// against a real diagd.
@Suite(.serialized) struct DaemonSessionTests {
    @Test func ringRecordsComeBackAsRecords() throws {
        let daemon = try RunningDaemon()
        let transport = LogTransport(socketPath: daemon.socketPath)
        let logger = Logger(subsystem: "com.example.sync", category: "ring", transport: transport)
        logger.debug("only in memory \(7, privacy: .public)", metadata: ["zone": "A"])
        logger.info("stored")
        try transport.flush()
        let ring = try DaemonSession(socketPath: daemon.socketPath).ringRecords()
        #expect(ring.map(\.eventMessage) == ["only in memory 7"])
        #expect(ring.first?.messageType == .debug)
        #expect(ring.first?.metadata == ["zone": "A"])
        #expect(ring.first?.processID == Int64(getpid()))
        #expect(try daemon.clientRecords().map(\.eventMessage) == ["stored"])
    }

    @Test func configureChangesAndListsTheSettings() throws {
        let daemon = try RunningDaemon()
        let session = try DaemonSession(socketPath: daemon.socketPath)
        #expect(try session.configure(subsystem: nil, category: nil, mode: nil) == ["(all) level:debug,persist:info"])
        let settings = try session.configure(subsystem: "com.example.sync", category: "merge", mode: "persist:debug")
        #expect(settings == ["(all) level:debug,persist:info", "com.example.sync:merge persist:debug"])
        #expect(throws: DiagClientError.self) { try session.configure(subsystem: "s", category: nil, mode: "level:loud") }
        #expect(daemon.stop() == 0)
        try daemon.start()
        let again = try DaemonSession(socketPath: daemon.socketPath)
        #expect(try again.configure(subsystem: nil, category: nil, mode: nil).contains("com.example.sync:merge persist:debug"))
    }

    @Test func aStreamDeliversRecordsToTheCallback() throws {
        let daemon = try RunningDaemon()
        let socketPath = daemon.socketPath
        let received = ReceivedMessages()
        let reader = Thread {
            guard let session = try? DaemonSession(socketPath: socketPath) else { return }
            try? session.stream(level: .info, processes: [], predicate: "category == 'live'", onRecord: { received.add($0.eventMessage) }, onDropped: { _ in })
        }
        reader.start()
        let transport = LogTransport(socketPath: daemon.socketPath)
        let live = Logger(subsystem: "com.example.sync", category: "live", transport: transport)
        let other = Logger(subsystem: "com.example.sync", category: "other", transport: transport)
        let deadline = Date(timeIntervalSinceNow: 20)
        var round = 0
        // The subscription starts on its own thread: log until the stream has seen a record.
        while received.messages.isEmpty && Date() < deadline {
            round += 1
            other.error("not for the stream \(round, privacy: .public)")
            live.debug("below the stream's level \(round, privacy: .public)")
            live.error("for the stream \(round, privacy: .public)")
            try transport.flush()
            usleep(50_000)
        }
        let messages = received.messages
        #expect(!messages.isEmpty)
        #expect(messages.allSatisfy { $0.hasPrefix("for the stream") })
        #expect(daemon.stop() == 0)
    }
}

final class ReceivedMessages: @unchecked Sendable {
    // Safe: every access holds `lock`.
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ message: String) { lock.withLock { list.append(message) } }
    var messages: [String] { lock.withLock { list } }
}
