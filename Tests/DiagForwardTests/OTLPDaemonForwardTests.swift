import DiagForward
import DiagModel
import Foundation
import Glibc
import Testing
import TestSupport

/// A real diagd forwarding to `otlp+http://` on loopback: every record arrives as valid OTLP,
/// a receiver that refuses or is unavailable loses nothing it should get, and a killed diagd
/// resumes from its cursor.
@Suite(.serialized) struct OTLPDaemonForwardTests {
    /// The records the receiver accepted (answered 200), every request checked against the rules.
    static func accepted(_ receiver: OTLPTestReceiver) throws -> [OTLPReceivedRecord] {
        var records: [OTLPReceivedRecord] = []
        for request in receiver.requests {
            let rules = OTLPJSONRules.check(try gunzipBytes(request.body))
            #expect(rules.problems == [])
            if case .status(200, _, _) = request.reply { records += rules.records }
        }
        return records
    }

    /// Indexes of accepted records tagged `tag`, one entry per copy received.
    static func indexes(_ records: [OTLPReceivedRecord], tagged tag: String) -> [Int] {
        records.compactMap { record in
            guard let body = record.body?.stringValue, body.hasPrefix("\(tag) #") else { return nil }
            return Int(body.dropFirst(tag.count + 2).prefix { $0.isNumber })
        }
    }

    static func wait(seconds: Double = 60, until done: () throws -> Bool) rethrows -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            if try done() { return true }
            usleep(50_000)
        }
        return try done()
    }

    /// diagd forwarding to `receiver`: a new forward fixes where it starts before diagd accepts
    /// connections, so records sent at once are forwarded (ForwardStartTests).
    func forwardingDaemon(to receiver: OTLPTestReceiver) throws -> RunningDaemon {
        try RunningDaemon(arguments: ["--forward", "otlp+http://127.0.0.1:\(receiver.port)/v1/logs"])
    }

    @Test func everyRecordArrivesAsValidOTLPAfterA503() throws {
        let receiver = try OTLPTestReceiver(replies: [.status(503, headers: ["Retry-After": "1"], body: "")])
        let daemon = try forwardingDaemon(to: receiver)
        // Debug records are not stored by diagd's default level configuration, so not forwarded.
        let levels = ["Fault", "Error", "Default", "Info"]
        try daemon.send((0..<300).map { index in
            recordLine(tag: "otlp", index: index, message: "café ✓ \"q\"\n", extra: #","messageType":"\#(levels[index % 4])","subsystem":"com.example.s\#(index % 3)","category":"upload","activityIdentifier":\#(100 + index),"traceID":\#(7_000 + index)"#)
        })
        #expect(try Self.wait { Set(Self.indexes(try Self.accepted(receiver), tagged: "otlp")).count == 300 })
        let records = try Self.accepted(receiver).filter { $0.body?.stringValue?.hasPrefix("otlp #") == true }
        // The 503 accepted nothing, so nothing arrives twice.
        #expect(Self.indexes(records, tagged: "otlp").sorted() == Array(0..<300))
        #expect(receiver.requests.count >= 2)
        for record in records {
            let index = Self.indexes([record], tagged: "otlp")[0]
            #expect(record.resource["host.name"]?.stringValue == RFC5424Encoder.localHostname())
            #expect(record.resource["process.pid"] == .int(Int64(getpid())))
            #expect(record.scope == "com.example.s\(index % 3)")
            #expect(record.severityNumber == [18, 17, 10, 9][index % 4])
            #expect(record.severityText == levels[index % 4])
            #expect(record.body?.stringValue == "otlp #\(index) café ✓ \"q\"\n")
            #expect(record.traceId == "0000000000000000" + String(format: "%016llx", 7_000 + index))
            #expect(record.spanId == String(format: "%016llx", 100 + index))
            #expect(record.attributes["diag.category"] == "upload")
        }
    }

    @Test func aRefusedBatchIsNotRetriedAndLaterRecordsFlow() throws {
        let receiver = try OTLPTestReceiver(replies: [.status(400, body: #"{"code":3,"message":"refused by test"}"#)])
        let daemon = try forwardingDaemon(to: receiver)
        try daemon.send((0..<20).map { recordLine(tag: "first", index: $0) })
        #expect(Self.wait { !receiver.requests.isEmpty })
        try daemon.send((0..<20).map { recordLine(tag: "second", index: $0) })
        #expect(try Self.wait { Set(Self.indexes(try Self.accepted(receiver), tagged: "second")).count == 20 })
        let refused = try receiver.requests.filter { request in
            let text = String(decoding: try gunzipBytes(request.body), as: UTF8.self)
            return text.contains("first #0")
        }
        #expect(refused.count == 1, "the refused request was sent again")
        #expect(Self.wait { daemon.stderr.contains("refused by test") }, "\(daemon.stderr)")
    }

    @Test func aKilledDaemonResumesFromItsCursorWhileTheReceiverIsUnavailable() throws {
        let receiver = try OTLPTestReceiver()
        let daemon = try forwardingDaemon(to: receiver)
        try daemon.send((0..<200).map { recordLine(tag: "before", index: $0) })
        #expect(try Self.wait { Set(Self.indexes(try Self.accepted(receiver), tagged: "before")).count == 200 })
        receiver.unavailable = true
        // Committed while the receiver answers 503: they wait in the store, behind the cursor.
        try daemon.send((0..<200).map { recordLine(tag: "during", index: $0) })
        #expect(Self.wait { receiver.requests.contains { if case .status(503, _, _) = $0.reply { true } else { false } } })
        daemon.kill(SIGKILL)
        receiver.unavailable = false
        try daemon.start()
        try daemon.send((0..<200).map { recordLine(tag: "after", index: $0) })
        #expect(try Self.wait {
            let accepted = try Self.accepted(receiver)
            return ["during", "after"].allSatisfy { Set(Self.indexes(accepted, tagged: $0)).count == 200 }
        })
        let accepted = try Self.accepted(receiver)
        for tag in ["before", "during", "after"] {
            #expect(Set(Self.indexes(accepted, tagged: tag)) == Set(0..<200), "\(tag)")
        }
    }
}
