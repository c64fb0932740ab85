@testable import DiagForward
import DiagGenerator
import DiagModel
import Foundation
import Testing

/// The OTLP/JSON encoding of records, checked against the OTLP rules and field by field.
struct OTLPEncodingTests {
    static let fullRecord = LogRecord(
        timestamp: 1_795_945_200_123_456_789, messageType: .fault, eventType: .activityCreateEvent,
        process: "synccore", processID: 4242, processImagePath: "/usr/libexec/synccore", userID: 501,
        sender: "SyncKit", senderImagePath: "/usr/lib/libSyncKit.so", subsystem: "com.example.sync", category: "engine",
        threadID: 77, activityIdentifier: -2, parentActivityIdentifier: 9, traceID: 0x1a2b,
        eventMessage: "Zoë's \"café\" ✓\n\ttab\u{01}", formatString: "%{public}s",
        signpostID: 5, signpostName: "upload", signpostType: "begin",
        metadata: ["storeIdentifier": "S-1", "count": 3, "ratio": 0.5, "ok": true, "none": nil, "list": [1, "two"],
                   "nested": ["deep": ["x": 1]]],
        receiptTime: 1_795_945_200_200_000_000)

    @Test func generatedRecordsFollowTheOTLPRulesAndAllArrive() throws {
        let records = Array(RecordGenerator(GeneratorOptions(count: 3000, seed: 7)))
        let json = OTLPLogsEncoder(hostName: "build-07").request(for: records)
        let rules = OTLPJSONRules.check(json)
        #expect(rules.problems == [])
        #expect(rules.records.count == records.count)
        #expect(Set(rules.records.compactMap(\.scope)) == Set(records.compactMap(\.subsystem)))
        #expect(Set(rules.records.map(\.body)) == Set(records.map { JSONValue.string($0.eventMessage) }))
        #expect(rules.records.compactMap(\.timeUnixNano).sorted() == records.map { UInt64($0.timestamp) }.sorted())
        #expect(rules.records.allSatisfy { $0.resource["host.name"] == "build-07" })
        #expect(Set(rules.records.compactMap { $0.resource["process.executable.name"]?.stringValue })
            == Set(records.compactMap(\.process)))
    }

    @Test func everyFieldOfARecordHasItsPlace() throws {
        let rules = OTLPJSONRules.check(OTLPLogsEncoder(hostName: "h").request(for: [Self.fullRecord]))
        #expect(rules.problems == [])
        let record = try #require(rules.records.first)
        #expect(record.resource == [
            "host.name": "h", "service.name": "synccore", "process.executable.name": "synccore",
            "process.executable.path": "/usr/libexec/synccore", "process.pid": 4242, "process.user.id": 501,
        ])
        #expect(record.scope == "com.example.sync")
        #expect(record.timeUnixNano == 1_795_945_200_123_456_789)
        #expect(record.severityNumber == 18)
        #expect(record.severityText == "Fault")
        #expect(record.body == "Zoë's \"café\" ✓\n\ttab\u{01}")
        #expect(record.traceId == "00000000000000000000000000001a2b")
        #expect(record.spanId == "fffffffffffffffe")
        #expect(record.attributes == [
            "diag.event_type": "activityCreateEvent", "diag.category": "engine", "diag.sender": "SyncKit",
            "diag.sender_image_path": "/usr/lib/libSyncKit.so", "thread.id": 77, "diag.activity_id": -2,
            "diag.parent_activity_id": 9, "diag.trace_id": 0x1a2b, "diag.format_string": "%{public}s",
            "diag.signpost_id": 5, "diag.signpost_name": "upload", "diag.signpost_type": "begin",
            "diag.metadata": ["storeIdentifier": "S-1", "count": 3, "ratio": 0.5, "ok": true, "none": nil,
                              "list": [1, "two"], "nested": ["deep": ["x": 1]]],
        ])
        let text = String(decoding: OTLPLogsEncoder(hostName: "h").request(for: [Self.fullRecord]), as: UTF8.self)
        #expect(text.contains("\"observedTimeUnixNano\":\"1795945200200000000\""))
        #expect(text.contains("\"severityNumber\":18,"))
        #expect(text.contains("\"process.pid\",\"value\":{\"intValue\":\"4242\"}"))
    }

    @Test(arguments: [(MessageType.debug, Int64(5)), (.info, 9), (.default, 10), (.error, 17), (.fault, 18)] as [(MessageType, Int64)])
    func severityNumbersFollowTheLevels(level: MessageType, number: Int64) throws {
        let record = LogRecord(timestamp: 1, messageType: level, eventMessage: "m")
        let rules = OTLPJSONRules.check(OTLPLogsEncoder(hostName: "h").request(for: [record]))
        #expect(rules.problems == [])
        #expect(rules.records.first?.severityNumber == number)
        #expect(rules.records.first?.severityText == level.name)
    }

    @Test func aBareRecordHasNoIdsAndTheFallbackServiceName() throws {
        let bare = LogRecord(timestamp: 5, traceID: 0, eventMessage: "")
        let rules = OTLPJSONRules.check(OTLPLogsEncoder(hostName: "h").request(for: [bare]))
        #expect(rules.problems == [])
        let record = try #require(rules.records.first)
        #expect(record.traceId == nil && record.spanId == nil && record.scope == nil)
        #expect(record.resource == ["host.name": "h", "service.name": "unknown_service"])
        #expect(record.attributes == ["diag.event_type": "logEvent", "diag.trace_id": 0])
        // An import has no receipt time: observed is the record's own time.
        let text = String(decoding: OTLPLogsEncoder(hostName: "h").request(for: [bare]), as: UTF8.self)
        #expect(text.contains("\"timeUnixNano\":\"5\",\"observedTimeUnixNano\":\"5\""))
    }

    @Test func aTimeBefore1970IsLeftUnknownAndKeptAsAnAttribute() {
        let early = LogRecord(timestamp: -1_000, eventMessage: "old")
        let rules = OTLPJSONRules.check(OTLPLogsEncoder(hostName: "h").request(for: [early]))
        #expect(rules.problems == [])
        #expect(rules.records.first?.timeUnixNano == nil)
        #expect(rules.records.first?.attributes["diag.timestamp"] == -1_000)
    }

    @Test func recordsAreGroupedByProcessThenSubsystemInFirstSeenOrder() {
        let records = [("a", "s1"), ("b", "s1"), ("a", "s2"), ("a", "s1")].enumerated().map { index, pair in
            LogRecord(timestamp: Int64(index), process: pair.0, subsystem: pair.1, eventMessage: "\(index)")
        }
        let groups = OTLPLogsEncoder.grouped(records)
        #expect(groups.map(\.process.name) == ["a", "b"])
        #expect(groups[0].scopes.map(\.subsystem) == ["s1", "s2"])
        #expect(groups[0].scopes[0].records.map(\.eventMessage) == ["0", "3"])
        let rules = OTLPJSONRules.check(OTLPLogsEncoder(hostName: "h").request(for: records))
        #expect(rules.problems == [])
        #expect(rules.records.compactMap(\.body?.stringValue) == ["0", "3", "2", "1"])
    }

    @Test func theRulesCatchWhatTheSpecForbids() {
        let bad = #"{"resourceLogs":[{"resource":{"attributes":[]},"scope_logs":[],"scopeLogs":[{"scope":{},"logRecords":[{"timeUnixNano":1795945200,"severityNumber":"SEVERITY_NUMBER_INFO","severityText":"Info","body":{"stringValue":"x","intValue":"1"},"traceId":"AAAAAAAAAAAAAAAAAAAAAA==","spanId":"0000000000000000"}]}]}]}"#
        let problems = OTLPJSONRules.check(Array(bad.utf8)).problems
        #expect(problems.contains { $0.hasSuffix(".scope_logs: not a field of this message") })
        #expect(problems.contains { $0.contains("timeUnixNano: 1795945200.0 is not a decimal string") || $0.contains("timeUnixNano: int(1795945200)") })
        #expect(problems.contains { $0.contains("severityNumber") })
        #expect(problems.contains { $0.contains("body: more than one value field") })
        #expect(problems.contains { $0.contains("traceId") && $0.contains("hex") })
        #expect(problems.contains { $0.contains("spanId: all zero") })
        #expect(problems.contains { $0.contains("no host.name") })
    }

    @Test func gzipBodiesDecompressWithTheSystemsGzip() throws {
        let encoder = try GzipEncoder()
        var generator = SplitMix(seed: 3)
        let random = (0..<300_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let text = Array(String(repeating: "resourceLogs scopeLogs ", count: 20_000).utf8)
        for input in [[], random, text, Array("{}".utf8)] {
            let compressed = try encoder.compress(input)
            #expect(compressed.starts(with: [0x1f, 0x8b]))
            #expect(try gunzipBytes(compressed) == input)
        }
        #expect(try encoder.compress(text).count < text.count / 50)
    }
}

/// A tiny deterministic generator for test bytes.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
