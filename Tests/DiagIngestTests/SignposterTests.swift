import DiagClient
import DiagModel
import Foundation
import Testing
import TestSupport

/// DiagClient's `Signposter` through a real diagd: the records it sends, as the store keeps them
/// and as `diag show --signpost --style ndjson` writes them (Apple's field names).
@Suite(.serialized) struct SignposterTests {
    @Test func intervalsAndEventsArriveAsSignpostRecordsWithAppleFieldNames() throws {
        let daemon = try RunningDaemon()
        let transport = LogTransport(socketPath: daemon.socketPath)
        let signposter = Signposter(subsystem: "com.example.sync", category: "export", transport: transport)
        let threads = Signposter(subsystem: "com.example.sync", category: "fetch", scope: .thread, transport: transport)
        let id = signposter.makeSignpostID()
        let state = signposter.beginInterval("export", id: id, "batch \(3, privacy: .public)")
        signposter.emitEvent("push received", "topic \("t", privacy: .public)")
        signposter.endInterval("export", state, "\(10, privacy: .public) records")
        let value = threads.withIntervalSignpost("fetch", id: threads.makeSignpostID(from: "zone main")) { 42 }
        #expect(value == 42)
        // IDs: generated ones differ; from one value, the same in every process; invalid sends nothing.
        #expect(signposter.makeSignpostID() != signposter.makeSignpostID())
        #expect(threads.makeSignpostID(from: "zone main") == SignpostID(value: "zone main"))
        _ = signposter.beginInterval("never sent", id: .invalid)
        try transport.flush()

        let records = try daemon.clientRecords()
        #expect(records.count == 5)
        #expect(records.allSatisfy { $0.eventType == .signpostEvent })
        #expect(records.map(\.signpostType) == ["begin", "event", "end", "begin", "end"])
        #expect(records.map(\.signpostName) == ["export", "push received", "export", "fetch", "fetch"])
        #expect(records.map(\.signpostScope) == ["process", "process", "process", "thread", "thread"])
        #expect(records[0].signpostID == Int64(bitPattern: id.rawValue) && records[2].signpostID == records[0].signpostID)
        #expect(records[1].signpostID == Int64(bitPattern: SignpostID.exclusive.rawValue))
        #expect(records[0].eventMessage == "batch 3" && records[2].eventMessage == "10 records")
        #expect(records[3].signpostID == Int64(bitPattern: SignpostID(value: "zone main").rawValue))
        #expect(records.allSatisfy { $0.subsystem == "com.example.sync" && $0.threadID != nil })

        let shown = try run(BuiltProducts.path("diag"), ["show", "--signpost", "--style", "ndjson", daemon.storePath],
                            environment: ["TZ": "UTC"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let objects = shown.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["eventType"] as? String == "signpostEvent" }
        #expect(objects.count == 5)
        let first = try #require(objects.first)
        #expect(first["signpostType"] as? String == "begin")
        #expect(first["signpostName"] as? String == "export")
        #expect(first["signpostScope"] as? String == "process")
        #expect((first["signpostID"] as? NSNumber)?.int64Value == Int64(bitPattern: id.rawValue))
        daemon.stop()
    }
}
