import DiagModel
import Foundation
import Testing
import TestSupport

@Suite(.serialized) struct LevelTests {
    @Test func debugRecordsStayInTheRingByDefaultAndAreFetchedWithARingRequest() throws {
        let session = try RawDaemonSession()
        let client = session.client
        client.write("""
            {"eventMessage":"debug one","messageType":"Debug","subsystem":"com.example.sync"}
            {"eventMessage":"info one","messageType":"Info","subsystem":"com.example.sync"}
            {"eventMessage":"debug two","messageType":"debug","subsystem":"com.example.sync"}
            {"sync":1}

            """)
        #expect(client.waitForSync(1) == [])
        client.write("{\"ring\":true}\n")
        var ring: [String] = []
        while let reply = client.readReply() {
            if let end = reply["end"] {
                #expect(end.int64Value == 2)
                break
            }
            ring.append(reply["eventMessage"]?.stringValue ?? "?")
            #expect(reply["processID"]?.int64Value == Int64(getpid()))
        }
        #expect(ring == ["debug one", "debug two"])
        try session.finish()
        #expect(try session.daemon.clientRecords().map(\.eventMessage) == ["info one"])
    }

    @Test func configChangesPersistenceAtRunTimeAndTheSettingSurvivesARestart() throws {
        let daemon = try RunningDaemon()
        let client = try DaemonClient(path: daemon.socketPath)
        client.write("{\"config\":{\"subsystem\":\"com.example.sync\",\"mode\":\"persist:debug\"}}\n")
        let configured = try #require(client.readReply()?["configured"])
        #expect(configured.compactDescription.contains("com.example.sync"))
        client.write("{\"config\":{\"subsystem\":\"com.example.noisy\",\"category\":\"spam\",\"mode\":\"level:default\"}}\n")
        #expect(client.readReply()?["configured"] != nil)
        client.write("""
            {"eventMessage":"kept debug","messageType":"Debug","subsystem":"com.example.sync"}
            {"eventMessage":"ring debug","messageType":"Debug","subsystem":"com.example.other"}
            {"eventMessage":"dropped info","messageType":"Info","subsystem":"com.example.noisy","category":"spam"}
            {"eventMessage":"kept default","subsystem":"com.example.noisy","category":"spam"}
            {"eventMessage":"kept info","messageType":"Info","subsystem":"com.example.noisy","category":"other"}
            {"sync":1}

            """)
        #expect(client.waitForSync(1) == [])
        client.write("{\"stats\":true}\n")
        let stats = try #require(client.readReply()?["stats"]?.objectValue)
        #expect(stats["droppedByLevel"]?.int64Value == 1)
        #expect(stats["ringOnly"]?.int64Value == 1)
        #expect(daemon.stop() == 0)
        #expect(try daemon.clientRecords().map(\.eventMessage) == ["kept debug", "kept default", "kept info"])

        try daemon.start()
        let again = try DaemonClient(path: daemon.socketPath)
        again.write("{\"eventMessage\":\"kept after restart\",\"messageType\":\"Debug\",\"subsystem\":\"com.example.sync\"}\n{\"sync\":2}\n")
        #expect(again.waitForSync(2) == [])
        #expect(daemon.stop() == 0)
        #expect(try daemon.clientRecords().map(\.eventMessage).last == "kept after restart")
    }

    @Test func badConfigRequestsAreRefusedWithWhatIsAccepted() throws {
        let session = try RawDaemonSession()
        session.client.write("""
            {"config":{"subsystem":"s","mode":"level:loud"}}
            {"config":{"subsystem":"s","mode":"keep:debug"}}
            {"config":{"category":"c","mode":"level:info"}}
            {"config":"level:debug"}
            {"sync":1}

            """)
        let replies = try #require(session.client.waitForSync(1))
        #expect(replies.compactMap { $0["line"]?.int64Value } == [1, 2, 3, 4])
        #expect(replies[0]["error"]?.stringValue?.contains("accepted: debug, info or default") == true)
        #expect(replies[1]["error"]?.stringValue?.contains("accepted keys: level, persist") == true)
        #expect(replies[2]["error"]?.stringValue?.contains("needs 'config.subsystem'") == true)
    }
}

extension JSONValue {
    var compactDescription: String {
        var writer = JSONWriter()
        writer.append(self)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

@Suite(.serialized) struct RingBoundTests {
    @Test func theRingIsBoundedInBytesAndKeepsTheNewest() throws {
        let session = try RawDaemonSession()
        let big = String(repeating: "d", count: 1_000_000)
        for index in 0..<30 {
            session.client.write("{\"eventMessage\":\"\(index) \(big)\",\"messageType\":\"Debug\"}\n")
        }
        session.client.write("{\"sync\":1}\n")
        #expect(session.client.waitForSync(1) == [])
        session.client.write("{\"ring\":true}\n")
        var kept: [Int] = []
        while let reply = session.client.readReply() {
            if let end = reply["end"]?.int64Value {
                #expect(end == Int64(kept.count))
                break
            }
            if let number = reply["eventMessage"]?.stringValue?.split(separator: " ").first.flatMap({ Int($0) }) {
                kept.append(number)
            }
        }
        // 16 MiB of ring holds 16 of these 1 MB records: the newest ones, in order.
        #expect(kept.count == 16)
        #expect(kept == Array(14..<30))
    }
}
