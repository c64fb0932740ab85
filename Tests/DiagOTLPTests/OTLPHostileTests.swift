import DiagForward
import DiagModel
import Foundation
import Glibc
import Testing
import TestSupport

/// Hostile requests to `--otlp-http`: each refused with its status and reason, diagd's memory
/// bounded, and diagd still taking good requests afterwards.
@Suite struct OTLPHostileTests {
    /// A good request is still answered 200 and its record stored.
    static func stillServes(_ daemon: OTLPDaemon, _ message: String) throws {
        let reply = try RawHTTPConnection.post(port: daemon.port, body: ProtobufBytes.request(service: "probe", records: [.record(message)]))
        #expect(reply.status == 200, "\(reply.text)")
        #expect(try daemon.clientRecords().contains { $0.eventMessage == message && $0.process == "probe" })
    }

    @Test func wrongPathMethodTypeAndEncodingAreRefusedWithTheirStatus() throws {
        let daemon = try OTLPDaemon()
        let body = ProtobufBytes.request(service: "x", records: [.record("never")])
        let wrongPath = try RawHTTPConnection.post(port: daemon.port, path: "/v1/traces", body: body)
        #expect(wrongPath.status == 404)
        let wrongMethod = try RawHTTPConnection.post(port: daemon.port, method: "PUT", body: body)
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.headers["allow"] == "POST")
        let get = try RawHTTPConnection.post(port: daemon.port, method: "GET", contentType: "application/json", body: [])
        #expect(get.status == 405)
        #expect(get.text.contains("method GET is not allowed on /v1/logs: send POST"), "\(get.text)")
        let wrongType = try RawHTTPConnection.post(port: daemon.port, contentType: "text/xml", body: body)
        #expect(wrongType.status == 415)
        #expect(wrongType.text.contains("Content-Type 'text/xml' is not taken: send application/x-protobuf or application/json"))
        let wrongEncoding = try RawHTTPConnection.post(port: daemon.port, contentType: "application/json", encoding: "br", body: body)
        #expect(wrongEncoding.status == 415)
        #expect(try JSONReader.parseObject(wrongEncoding.body)["message"] == "Content-Encoding 'br' is not taken: send gzip or no encoding")
        #expect(try daemon.clientRecords().isEmpty)
        try Self.stillServes(daemon, "after refusals")
        #expect(daemon.stop() == 0)
        #expect(daemon.stderr.contains("otlp-http: refused "), "\(daemon.stderr)")
    }

    @Test func oversizedBodiesAreRefusedWith413() throws {
        let daemon = try OTLPDaemon()
        // Announced: refused from the headers, before any of the body is read.
        let announced = try RawHTTPConnection(port: daemon.port)
        announced.write(Array("POST /v1/logs HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-protobuf\r\nContent-Length: 5000000\r\n\r\n".utf8))
        let early = try #require(announced.readReply())
        #expect(early.status == 413)
        #expect(early.text.contains("the body of 5000000 bytes is over the limit of 4194304 bytes"))
        announced.close()
        // Chunked, with no length: refused once past the limit; the rest is read and dropped.
        let chunked = try RawHTTPConnection(port: daemon.port)
        chunked.write(Array("POST /v1/logs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
        let piece = [UInt8](repeating: UInt8(ascii: " "), count: 1 << 20)
        for _ in 0..<5 { chunked.write(Array("100000\r\n".utf8) + piece + Array("\r\n".utf8)) }
        chunked.write(Array("0\r\n\r\n".utf8))
        let late = try #require(chunked.readReply())
        #expect(late.status == 413)
        chunked.close()
        // More records than one request may hold: 65,537 empty ones fit in 131 KB.
        var scope = ProtobufBytes()
        for _ in 0..<65_537 { scope.message(2, ProtobufBytes()) }
        var resourceLogs = ProtobufBytes()
        resourceLogs.message(2, scope)
        var request = ProtobufBytes()
        request.message(1, resourceLogs)
        let many = try RawHTTPConnection.post(port: daemon.port, body: request.bytes)
        #expect(many.status == 413)
        try Self.stillServes(daemon, "after oversized bodies")
        #expect(daemon.stop() == 0)
    }

    @Test func malformedProtobufIsRefusedWith400AndItsReason() throws {
        let daemon = try OTLPDaemon()
        var deep = ProtobufBytes()
        deep.string(1, "bottom")
        for _ in 0..<40 {
            var list = ProtobufBytes()
            list.message(1, deep)
            var outer = ProtobufBytes()
            outer.message(5, list)
            deep = outer
        }
        var deepRecord = ProtobufBytes()
        deepRecord.message(5, deep)
        let cases: [(name: String, body: [UInt8], reason: String)] = [
            ("truncated varint", [0x0A, 0x80], "a varint is cut off by the end of its message"),
            ("overlong varint", [0x10] + [UInt8](repeating: 0xFF, count: 11), "a varint runs past 10 bytes"),
            ("wrong wire type", [0x08, 0x01], "resource_logs (1) has wire type varint (0); the OTLP schema gives it length-delimited (2)"),
            ("length past the end", [0x0A, 0x7F, 0x01], "a length of 127 bytes runs past the end of its message (1 bytes left)"),
            ("group", [0x13], "groups (wire types 3 and 4) are not part of OTLP"),
            ("wire type 7", [0x0F], "wire type 7 does not exist"),
            ("deep nesting", ProtobufBytes.request(service: "x", records: [deepRecord]), "messages nest more than 32 deep"),
            ("invalid UTF-8", ProtobufBytes.request(service: "x", records: [{ var r = ProtobufBytes(); r.bytes = [0x1A, 0x02, 0xC3, 0x28]; return r }()]), "severity_text is not valid UTF-8"),
        ]
        for (name, body, reason) in cases {
            let reply = try RawHTTPConnection.post(port: daemon.port, body: body)
            #expect(reply.status == 400, "\(name)")
            #expect(reply.headers["content-type"] == "application/x-protobuf")
            // google.rpc.Status: the message is field 2.
            #expect(reply.text.contains(reason), "\(name): \(reply.text)")
        }
        let deepJSON = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        let json = try RawHTTPConnection.post(port: daemon.port, contentType: "application/json", body: Array(deepJSON.utf8))
        #expect(json.status == 400)
        #expect(json.text.contains("JSON: "), "\(json.text)")
        let wrongType = try RawHTTPConnection.post(
            port: daemon.port, contentType: "application/json", body: Array(#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"severityNumber":"high"}]}]}]}"#.utf8))
        #expect(wrongType.status == 400)
        #expect(try JSONReader.parseObject(wrongType.body)["message"]
            == "JSON: resourceLogs[0].scopeLogs[0].logRecords[0].severityNumber 'high' is not a 64-bit integer")
        #expect(try daemon.clientRecords().isEmpty)
        try Self.stillServes(daemon, "after bad protobuf")
        #expect(daemon.stop() == 0)
    }

    @Test func badGzipIsRefusedWith400AndAGzipBombWith413WithinBoundedMemory() throws {
        let daemon = try OTLPDaemon()
        let notGzip = try RawHTTPConnection.post(port: daemon.port, encoding: "gzip", body: Array("plainly not gzip".utf8))
        #expect(notGzip.status == 400)
        #expect(notGzip.text.contains("the body is not valid gzip: incorrect header check at byte"), "\(notGzip.text)")
        let valid = try GzipEncoder().compress(ProtobufBytes.request(service: "x", records: [.record("cut")]))
        let truncated = try RawHTTPConnection.post(port: daemon.port, encoding: "gzip", body: Array(valid.dropLast(6)))
        #expect(truncated.status == 400)
        #expect(truncated.text.contains("it ends before its last member does"), "\(truncated.text)")
        // 64 gzip members of 16 MiB of zeros each: a 1 GiB body from about 1 MB on the wire.
        let member = try GzipEncoder(level: 9).compress([UInt8](repeating: 0, count: 16 << 20))
        let bomb = Array((0..<64).map { _ in member }.joined())
        #expect(bomb.count < 4 << 20)
        let refused = try RawHTTPConnection.post(port: daemon.port, encoding: "gzip", body: bomb)
        #expect(refused.status == 413)
        #expect(refused.text.contains("the gzip body inflates past 16777216 bytes"), "\(refused.text)")
        // Bodies of tiny values, which cost far more decoded than on the wire, are counted first.
        let emptyRecords = "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[" + Array(repeating: "{}", count: 5_000_000).joined(separator: ",") + "]}]}]}"
        let containers = try RawHTTPConnection.post(
            port: daemon.port, contentType: "application/json", encoding: "gzip", body: try GzipEncoder().compress(Array(emptyRecords.utf8)))
        #expect(containers.status == 413)
        #expect(containers.text.contains("the body holds more than 131072 objects and arrays (5000006)"), "\(containers.text)")
        var tinyAttributes = ProtobufBytes()
        tinyAttributes.bytes = Array(repeating: [0x32, 0x00], count: 7 << 20).flatMap { $0 }
        let messages = try RawHTTPConnection.post(
            port: daemon.port, encoding: "gzip", body: try GzipEncoder().compress(ProtobufBytes.request(service: "x", records: [tinyAttributes])))
        #expect(messages.status == 413)
        #expect(messages.text.contains("the body holds more than 524288 embedded messages"), "\(messages.text)")
        // Held to the bounds: diagd's peak resident memory stays far below the 1 GiB the bomb
        // would inflate to, and the gigabytes 5 million parsed JSON objects would take.
        let status = try String(contentsOfFile: "/proc/\(daemon.process.processIdentifier)/status", encoding: .utf8)
        let peakLine = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let peakKiB = Int(peakLine.split(separator: " ").dropFirst().first ?? "") ?? .max
        #expect(peakKiB < 256 << 10, "\(peakLine)")
        try Self.stillServes(daemon, "after gzip bombs")
        #expect(daemon.stop() == 0)
    }

    @Test func aSlowClientIsClosedAndOthersAreServedMeanwhile() throws {
        let daemon = try OTLPDaemon()
        let silentAfterHeaders = try RawHTTPConnection(port: daemon.port)
        silentAfterHeaders.write(Array("POST /v1/logs HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-protobuf\r\nContent-Length: 100\r\n\r\n".utf8))
        let halfHeaders = try RawHTTPConnection(port: daemon.port)
        halfHeaders.write(Array("POST /v1/logs HTTP/1.1\r\nHost: x\r\n".utf8))
        try Self.stillServes(daemon, "while two clients stall")
        // libmicrohttpd closes a connection idle for 10 s.
        #expect(silentAfterHeaders.closedByServer(within: 60))
        #expect(halfHeaders.closedByServer(within: 60))
        try Self.stillServes(daemon, "after the stalled clients")
        #expect(daemon.stop() == 0)
    }

    @Test func connectionsBeyondTheLimitAreClosedAndDiagdStaysUp() throws {
        let daemon = try OTLPDaemon(extra: ["--max-connections", "16"])
        var held: [RawHTTPConnection] = []
        for _ in 0..<16 {
            let connection = try RawHTTPConnection(port: daemon.port)
            connection.write(Array("POST /v1/logs HTTP/1.1\r\nHost: x\r\n".utf8))
            held.append(connection)
        }
        var closed = 0
        for index in 0..<1000 {
            // A header line now and then keeps the held connections inside libmicrohttpd's 10 s
            // idle timeout however slow the machine is, so none of the extras finds a free slot.
            if index % 50 == 0 { held.forEach { $0.write(Array("X-Held: \(index)\r\n".utf8)) } }
            guard let extra = try? RawHTTPConnection(port: daemon.port) else { closed += 1; continue }
            if extra.closedByServer(within: 5) { closed += 1 }
            extra.close()
        }
        #expect(closed == 1000)
        held.forEach { $0.close() }
        // The held connections' threads end as libmicrohttpd sees them closed; then it serves again.
        var served = false
        for attempt in 0..<50 where !served {
            if let reply = try? RawHTTPConnection.post(port: daemon.port, body: ProtobufBytes.request(service: "probe", records: [.record("after the flood \(attempt)")])) {
                served = reply.status == 200
            }
            if !served { usleep(200_000) }
        }
        #expect(served)
        #expect(daemon.stop() == 0)
    }

    @Test func anAddressOtherMachinesReachIsRefusedUnlessAskedFor() throws {
        let directory = try TemporaryDirectory("otlp-remote")
        let port = try LoopbackPort.free()
        let refused = try run(BuiltProducts.path("diagd"), [
            "--store", directory.file("store").path, "--socket", directory.file("d.sock").path, "--otlp-http", "0.0.0.0:\(port)",
        ])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--otlp-http '0.0.0.0:\(port)': 0.0.0.0 is reachable from other machines"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--otlp-http-allow-remote"))
        let badAddress = try run(BuiltProducts.path("diagd"), [
            "--store", directory.file("store").path, "--socket", directory.file("d.sock").path, "--otlp-http", "example.org:4318",
        ])
        #expect(badAddress.status == 64)
        #expect(badAddress.stderr.contains("--otlp-http 'example.org:4318': write PORT (on 127.0.0.1), HOST:PORT"), "\(badAddress.stderr)")
    }
}
