import DiagClient
import DiagModel
import Foundation
import Testing
import TestSupport

/// DiagClient's transport against a real diagd: flush, reconnection, drops.
@Suite(.serialized) struct TransportTests {
    @Test func flushWaitsUntilTheRecordsAreCommitted() throws {
        let daemon = try RunningDaemon()
        let transport = LogTransport(socketPath: daemon.socketPath)
        let logger = Logger(subsystem: "com.example.sync", category: "flush", transport: transport)
        for index in 0..<1000 { logger.notice("record \(index, privacy: .public)") }
        try transport.flush()
        let messages = try daemon.clientRecords().map(\.eventMessage)
        #expect(messages.count == 1000)
        #expect(messages.first == "record 0" && messages.last == "record 999")
    }

    @Test func theTransportReconnectsWhenTheDaemonRestarts() throws {
        let daemon = try RunningDaemon()
        let transport = LogTransport(socketPath: daemon.socketPath)
        let logger = Logger(subsystem: "com.example.sync", category: "restart", transport: transport)
        logger.error("before restart")
        try transport.flush()
        #expect(daemon.stop() == 0)
        try daemon.start()
        logger.error("after restart")
        // The first write may find the old connection dead; what was acknowledged is safe either way.
        if (try? transport.flush()) == nil {
            logger.error("after restart")
            try transport.flush()
        }
        let messages = try daemon.clientRecords().map(\.eventMessage)
        #expect(messages.first == "before restart")
        #expect(messages.contains("after restart"))
        #expect(transport.statistics.connections == 2)
    }

    @Test func aFullBufferDropsRecordsCountsThemAndReportsTheLoss() throws {
        let directory = try TemporaryDirectory("drops")
        let socketPath = directory.file("later.sock").path
        let transport = LogTransport(socketPath: socketPath, bufferLimit: 4096)
        let logger = Logger(subsystem: "com.example.sync", category: "drops", transport: transport)
        for index in 0..<200 { logger.info("no daemon yet \(index, privacy: .public)") }
        #expect(transport.statistics.dropped > 150)
        let daemon = try RunningDaemon(directory: directory)
        #expect(daemon.socketPath == directory.file("diagd.sock").path)
        let late = LogTransport(socketPath: daemon.socketPath, bufferLimit: 4096)
        let lateLogger = Logger(subsystem: "com.example.sync", category: "drops", transport: late)
        for index in 0..<200 { lateLogger.info("burst \(index, privacy: .public)") }
        let dropped = late.statistics.dropped
        try late.flush()
        let records = try daemon.clientRecords()
        let loss = records.filter { $0.eventType == .lossEvent }
        // One loss record per time the sender caught up after drops; together they count them all.
        let reported = loss.compactMap { $0.metadata?["dropped"]?.int64Value }.reduce(0, +)
        #expect(reported == Int64(dropped))
        #expect(loss.allSatisfy { $0.messageType == .error && $0.eventMessage.contains("dropped") })
        #expect(records.filter { $0.eventType == .logEvent }.count == 200 - dropped)
    }
}
