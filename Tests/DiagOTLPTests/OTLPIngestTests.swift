import DiagForward
import DiagGenerator
import DiagModel
import Foundation
import Testing
import TestSupport

/// OTLP/HTTP into diagd with real clients: `diag export`'s encoder posted back by curl, the
/// OpenTelemetry Python SDK, a JSON body as the OTLP specification shapes it.
@Suite struct OTLPIngestTests {
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

    /// curl POSTs a file as a user would; returns the status and the body of the answer.
    static func curl(_ endpoint: String, file: String, contentType: String, gzip: Bool = false) throws -> (status: Int, body: String) {
        var arguments = ["-sS", "-o", "-", "-w", "\n%{http_code}", "-H", "Content-Type: \(contentType)", "--data-binary", "@\(file)", endpoint]
        if gzip { arguments += ["-H", "Content-Encoding: gzip"] }
        let output = try run("/usr/bin/curl", arguments)
        #expect(output.status == 0, "curl: \(output.stderr)")
        let lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    @Test func recordsExportedByDiagComeBackEqualThroughGzipJSON() throws {
        let daemon = try OTLPDaemon()
        let generated = Array(RecordGenerator(GeneratorOptions(count: 1500, seed: 11)))
        let sent = generated + [Self.fullRecord]
        let json = OTLPLogsEncoder(hostName: RFC5424Encoder.localHostname()).request(for: sent)
        let file = daemon.directory.file("export.json.gz")
        try Data(try GzipEncoder().compress(json)).write(to: file)
        let answer = try Self.curl(daemon.endpoint, file: file.path, contentType: "application/json", gzip: true)
        #expect(answer.status == 200, "\(answer.body)")
        #expect(answer.body == "{}")
        // Answered 200 only once committed: the store holds them now, before any stop.
        var stored = try daemon.clientRecords()
        #expect(stored.allSatisfy { $0.receiptTime != nil })
        for index in stored.indices { stored[index].receiptTime = nil }
        // Debug records stay in diagd's memory ring (the default level settings), as on its own socket.
        var expected = sent.filter { $0.messageType != .debug }
        for index in expected.indices { expected[index].receiptTime = nil }
        #expect(stored.count == expected.count)
        #expect(Set(stored) == Set(expected))
        #expect(sent.contains { $0.messageType == .debug })
        #expect(daemon.stop() == 0)
    }

    @Test func anotherMachinesHostNameIsKeptInMetadata() throws {
        let daemon = try OTLPDaemon()
        var record = Self.fullRecord
        record.metadata = nil
        let file = daemon.directory.file("export.json")
        try Data(OTLPLogsEncoder(hostName: "build-07").request(for: [record])).write(to: file)
        #expect(try Self.curl(daemon.endpoint, file: file.path, contentType: "application/json").status == 200)
        let stored = try #require(try daemon.clientRecords().first)
        #expect(stored.metadata == ["host.name": "build-07"])
        #expect(stored.process == "synccore")
        #expect(daemon.stop() == 0)
    }

    @Test(arguments: ["none", "gzip"])
    func theOpenTelemetryPythonSDKExportsProtobufIntoTheStore(compression: String) throws {
        let daemon = try OTLPDaemon()
        let python = try OTelVenv.python()
        let output = try run(python, [OTelVenv.script("otel_send_logs.py")], environment: [
            "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT": daemon.endpoint, "OTEL_SERVICE_NAME": "notifier",
            "OTEL_EXPORTER_OTLP_COMPRESSION": compression,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let ids = output.stdout.split(separator: " ").map { String($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let records = try daemon.clientRecords()
        #expect(records.map(\.eventMessage) == ["device subscribed", "push slow", "push lost for device B", "notifier giving up"], "\(daemon.stderr)")
        #expect(records.map(\.messageType) == [.info, .default, .error, .fault])
        #expect(records.allSatisfy { $0.process == "notifier" && $0.subsystem == "com.example.notifier.push" })
        #expect(records.allSatisfy { $0.metadata?["deployment.environment"] == "test" })
        #expect(records[0].metadata?["topic"] == "sync")
        #expect(records[0].metadata?["attempt"] == 2)
        #expect(records[1].metadata?["severityText"] == "WARN")
        #expect(records[2].metadata?["device"] == "B")
        // The span's ids: the low 64 bits of the trace id in traceID (the whole one in metadata), the span as the activity.
        let traceHex = try #require(ids.first)
        let spanHex = try #require(ids.last)
        #expect(records[2].metadata?["traceId"] == .string(traceHex))
        #expect(records[2].traceID == Int64(bitPattern: UInt64(traceHex.suffix(16), radix: 16) ?? 0))
        #expect(records[2].activityIdentifier == Int64(bitPattern: UInt64(spanHex, radix: 16) ?? 0))
        #expect(records[0].traceID == nil)
        #expect(daemon.stop() == 0)
    }

    @Test func aJSONBodyShapedAsTheSpecificationSaysIsTaken() throws {
        let daemon = try OTLPDaemon()
        let body = """
            {"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"transport"}},
              {"key":"process.pid","value":{"intValue":"4321"}}]},
             "scopeLogs":[{"scope":{"name":"com.example.sync.transport","version":"1.0"},
              "logRecords":[
               {"timeUnixNano":"1795945200000000000","severityNumber":17,"severityText":"ERROR",
                "body":{"stringValue":"upload failed: 503"},
                "traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174",
                "attributes":[{"key":"http.status","value":{"intValue":"503"}},{"key":"retry","value":{"boolValue":true}},
                 {"key":"ratio","value":{"doubleValue":0.25}},{"key":"tags","value":{"arrayValue":{"values":[{"stringValue":"a"}]}}},
                 {"key":"blob","value":{"bytesValue":"AAEC"}}]},
               {"observedTimeUnixNano":"1795945201000000000","severityNumber":1,"body":{"kvlistValue":{"values":[{"key":"k","value":{"intValue":"1"}}]}}},
               {"timeUnixNano":1795945202000000000,"severityNumber":10,"body":{"stringValue":"notice"}}
              ]}]}]}
            """
        let file = daemon.directory.file("spec.json")
        try Data(body.utf8).write(to: file)
        let answer = try Self.curl(daemon.endpoint, file: file.path, contentType: "application/json")
        #expect(answer.status == 200, "\(answer.body)")
        let records = try daemon.clientRecords()
        #expect(records.map(\.eventMessage) == ["upload failed: 503", "notice"])
        let failed = try #require(records.first)
        #expect(failed.messageType == .error)
        #expect(failed.process == "transport" && failed.processID == 4321 && failed.subsystem == "com.example.sync.transport")
        #expect(failed.timestamp == 1_795_945_200_000_000_000)
        #expect(failed.traceID == Int64(bitPattern: 0xd269b633813fc60c))
        #expect(failed.activityIdentifier == Int64(bitPattern: 0xeee19b7ec3c1b174))
        #expect(failed.metadata == [
            "http.status": 503, "retry": true, "ratio": 0.25, "tags": ["a"], "blob": "AAEC",
            "traceId": "5b8efff798038103d269b633813fc60c",
        ])
        #expect(records[1].messageType == .default)
        #expect(daemon.stop() == 0)
    }

    @Test func refusedRecordsAreCountedInThePartialSuccessAndTheOthersKept() throws {
        let daemon = try OTLPDaemon()
        let big = String(repeating: "x", count: (1 << 20) + 10)
        let body = """
            {"resourceLogs":[{"scopeLogs":[{"logRecords":[
              {"timeUnixNano":"1795945200000000000","severityNumber":9,"body":{"stringValue":"kept"}},
              {"timeUnixNano":"1795945200000000001","severityNumber":9,"body":{"stringValue":"\(big)"}},
              {"timeUnixNano":"18446744073709551615","severityNumber":9,"body":{"stringValue":"too late"}}
            ]}]}]}
            """
        let reply = try RawHTTPConnection.post(port: daemon.port, contentType: "application/json", body: Array(body.utf8))
        #expect(reply.status == 200)
        let answer = try JSONReader.parseObject(reply.body)
        let partial = try #require(answer["partialSuccess"]?.objectValue)
        #expect(partial["rejectedLogRecords"] == "2")
        let message = partial["errorMessage"]?.stringValue ?? ""
        #expect(message.hasPrefix("2 of 3 log records refused; the first: a record of 1048586 bytes"), "\(message)")
        #expect(try daemon.clientRecords().map(\.eventMessage) == ["kept"])
        #expect(daemon.stop() == 0)
    }
}

/// The private virtual environment with the OpenTelemetry SDK (Tests/Scripts/otel-venv.sh).
enum OTelVenv {
    static func script(_ name: String) -> String {
        BuiltProducts.fixturesDirectory.deletingLastPathComponent().appendingPathComponent("Scripts").appendingPathComponent(name).path
    }

    /// Its python; throws with pip's output when it cannot be made (no skip).
    static func python() throws -> String {
        let output = try run("/bin/sh", [script("otel-venv.sh")])
        guard output.status == 0 else { throw HTTPFailure("Tests/Scripts/otel-venv.sh failed (\(output.status)): \(output.stderr)") }
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
