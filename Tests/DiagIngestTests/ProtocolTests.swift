import DiagModel
import Foundation
import Glibc
import Testing
import TestSupport

@Suite(.serialized) struct ProtocolTests {
    @Test func recordsGetTrustedFieldsFromTheKernelAndSpoofedOnesAreIgnored() throws {
        let daemon = try RunningDaemon()
        let client = try DaemonClient(path: daemon.socketPath)
        client.write("""
            {"eventMessage":"spoofing","process":"kernel_task","processID":1,"userID":4242,"processImagePath":"/sbin/fake","receiptTime":5,"timestamp":1700000000000000000,"subsystem":"com.example.sync","category":"export","metadata":{"store":"A"}}
            {"sync":1}

            """)
        #expect(client.waitForSync(1) == [])
        #expect(daemon.stop() == 0)
        let records = try daemon.clientRecords()
        try #require(records.count == 1)
        let record = records[0]
        #expect(record.process == PeerIdentity.processNameOfSelf())
        #expect(record.processID == Int64(getpid()))
        #expect(record.userID == Int64(getuid()))
        #expect(record.processImagePath == (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")))
        #expect(record.timestamp == 1_700_000_000_000_000_000)
        #expect(record.receiptTime != nil && record.receiptTime != 5)
        #expect(record.subsystem == "com.example.sync" && record.category == "export")
        #expect(record.metadata == ["store": "A"])
    }

    @Test func malformedLinesGetErrorRepliesAndTheConnectionGoesOn() throws {
        let daemon = try RawDaemonSession()
        let client = daemon.client
        var bytes: [UInt8] = []
        bytes += Array("{\"eventMessage\":\"first\"}\n".utf8)
        bytes += Array("this is not json\n".utf8)
        bytes += Array(repeating: UInt8(ascii: "a"), count: 2 << 20) + [0x0A]
        bytes += Array("{\"eventMessage\":\"bad utf8 ".utf8) + [0xC3, 0x28] + Array("\"}\n".utf8)
        bytes += Array("{\"eventMessage\": 42}\n".utf8)
        bytes += Array("{\"eventMessage\":\"x\",\"messageType\":\"Loud\"}\n".utf8)
        bytes += Array("{\"eventMessage\":\"x\",\"threadID\":\"seven\"}\n".utf8)
        bytes += Array("[1,2,3]\n".utf8)
        bytes += Array("{\"sync\": [1]}\n".utf8)
        bytes += Array("{\"eventMessage\":\"second\"}\n{\"sync\":9}\n".utf8)
        client.write(bytes)
        let replies = try #require(client.waitForSync(9))
        let lines = replies.compactMap { $0["line"]?.int64Value }
        #expect(lines == [2, 3, 4, 5, 6, 7, 8, 9])
        #expect(replies.allSatisfy { ($0["error"]?.stringValue?.isEmpty == false) })
        #expect(replies[1]["error"]?.stringValue?.contains("1 MiB") == true)
        #expect(replies[2]["error"]?.stringValue?.contains("UTF-8") == true)
        #expect(replies[3]["error"]?.stringValue?.contains("eventMessage") == true)
        client.write("{\"stats\":true}\n")
        let stats = try #require(client.readReply()?["stats"]?.objectValue)
        #expect(stats["invalidLines"]?.int64Value == 8)
        try daemon.finish()
        #expect(try daemon.daemon.clientRecords().map(\.eventMessage) == ["first", "second"])
    }

    @Test func aClientThatDisconnectsMidLineLosesOnlyThatLine() throws {
        let session = try RawDaemonSession()
        session.client.write("{\"eventMessage\":\"whole\"}\n{\"sync\":1}\n")
        #expect(session.client.waitForSync(1) == [])
        session.client.write("{\"eventMessage\":\"cut in the mid")
        session.client.close()
        let second = try DaemonClient(path: session.daemon.socketPath)
        second.write("{\"eventMessage\":\"after\"}\n{\"sync\":2}\n")
        #expect(second.waitForSync(2) == [])
        try session.finish()
        #expect(try session.daemon.clientRecords().map(\.eventMessage) == ["whole", "after"])
    }

    @Test func aLastLineWithoutNewlineBeforeEndOfStreamIsKept() throws {
        let session = try RawDaemonSession()
        session.client.write("{\"eventMessage\":\"no newline\"}")
        session.client.finishWriting()
        #expect(session.client.readReply() == nil)
        try session.finish()
        #expect(try session.daemon.clientRecords().map(\.eventMessage) == ["no newline"])
    }
}

/// A daemon and one raw client connected to it.
struct RawDaemonSession {
    let daemon: RunningDaemon
    let client: DaemonClient

    init(arguments: [String] = []) throws {
        daemon = try RunningDaemon(arguments: arguments)
        client = try DaemonClient(path: daemon.socketPath)
    }

    func finish() throws {
        let status = daemon.stop()
        guard status == 0 else { throw DaemonFailure("diagd exited \(status): \(daemon.stderr)") }
    }
}

enum PeerIdentity {
    static func processNameOfSelf() -> String? {
        (try? String(contentsOfFile: "/proc/self/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines)
    }
}

@Suite(.serialized) struct HostileClientTests {
    @Test func aClientThatNeverReadsItsRepliesIsDroppedAndOthersAreServed() throws {
        let daemon = try RunningDaemon()
        let line = Array("not json at all, answered with an error each time\n".utf8)
        var lines: [UInt8] = []
        for _ in 0..<2000 { lines += line }
        let chunk = lines
        let socketPath = daemon.socketPath
        // About 20 MB of replies would pile up; the daemon gives up on this client instead.
        let writer = Thread {
            guard let flooder = try? DaemonClient(path: socketPath) else { return }
            for _ in 0..<100 { flooder.write(chunk) }
        }
        writer.start()
        let deadline = Date(timeIntervalSinceNow: 60)
        var dropped = false
        while !dropped && Date() < deadline {
            usleep(100_000)
            dropped = daemon.stderr.contains("did not read its replies")
        }
        #expect(dropped)
        let polite = try DaemonClient(path: daemon.socketPath)
        polite.write("{\"eventMessage\":\"still here\"}\n{\"sync\":1}\n")
        #expect(polite.waitForSync(1) == [])
        #expect(daemon.stop() == 0)
        #expect(try daemon.clientRecords().map(\.eventMessage) == ["still here"])
        #expect(daemon.stderr.contains("invalid lines; the first, line 1:"))
    }

    @Test func deeplyNestedAndOddlyTypedRecordsAreRefusedOneByOne() throws {
        let session = try RawDaemonSession()
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        session.client.write("""
            {"eventMessage":"x","metadata":\(deep)}
            {"eventMessage":"x","metadata":[1,2]}
            {"eventMessage":"x","timestamp":"yesterday"}
            {"eventMessage":"x","eventType":"coffeeEvent"}
            {"eventMessage":"x","processID":"not even a number"}
            {"eventMessage":"\\ud800"}
            {"eventMessage":"x"} trailing
            {"eventMessage":"ok","metadata":{"nested":{"deeper":[1,{"k":null}]}}}
            {"sync":1}

            """)
        let replies = try #require(session.client.waitForSync(1))
        // A trusted field is never taken from the line, but one of the wrong type is still refused.
        #expect(replies.compactMap { $0["line"]?.int64Value } == [1, 2, 3, 4, 5, 6, 7])
        #expect(replies[0]["error"]?.stringValue?.contains("nest") == true)
        try session.finish()
        let records = try session.daemon.clientRecords()
        #expect(records.map(\.eventMessage) == ["ok"])
        #expect(records.first?.processID == Int64(getpid()))
    }
}
