@testable import DiagForward
@testable import DiagForwardHTTP
import DiagGenerator
import DiagModel
import Foundation
import Testing

/// `OTLPHTTPSink` against a real HTTP/1.1 receiver on loopback: what it sends, and what it does
/// with each kind of answer.
struct OTLPHTTPSinkTests {
    static let records = Array(RecordGenerator(GeneratorOptions(count: 2500, seed: 11)))

    func sink(_ receiver: OTLPTestReceiver, perRequest: Int = 1000, timeout: TimeInterval = 10) -> OTLPHTTPSink {
        var options = OTLPHTTPSink.Options()
        options.maxRecordsPerRequest = perRequest
        options.requestTimeout = timeout
        return OTLPHTTPSink(endpoint: receiver.endpoint, host: "build-07", options: options)
    }

    /// Every request checked against the OTLP rules; the records of those the receiver accepted.
    func acceptedRecords(_ receiver: OTLPTestReceiver) throws -> [OTLPReceivedRecord] {
        var accepted: [OTLPReceivedRecord] = []
        for request in receiver.requests {
            #expect(request.method == "POST")
            #expect(request.path == "/v1/logs")
            #expect(request.headers["content-type"] == "application/json")
            #expect(request.headers["content-encoding"] == "gzip")
            let rules = OTLPJSONRules.check(try gunzipBytes(request.body))
            #expect(rules.problems == [])
            if case .status(200, _, _) = request.reply { accepted += rules.records }
        }
        return accepted
    }

    /// Sent records, as the receiver sees them: time and message, one entry per copy.
    func keys(_ records: [OTLPReceivedRecord]) -> [String] {
        records.map { "\($0.timeUnixNano ?? 0) \($0.body?.stringValue ?? "")" }.sorted()
    }

    func keys(_ records: [LogRecord]) -> [String] {
        records.map { "\($0.timestamp) \($0.eventMessage)" }.sorted()
    }

    func deliveryError(_ body: () throws -> Void) -> ForwardError? {
        do {
            try body()
            return nil
        } catch let error as ForwardError {
            return error
        } catch {
            Issue.record("not a ForwardError: \(error)")
            return nil
        }
    }

    @Test func aBatchArrivesAsValidGzipRequestsOfBoundedSize() throws {
        let receiver = try OTLPTestReceiver()
        let sink = sink(receiver)
        try sink.deliver(Self.records)
        #expect(receiver.requests.count == 3)
        #expect(sink.statistics.requests == 3 && sink.statistics.acceptedRecords == 2500)
        #expect(keys(try acceptedRecords(receiver)) == keys(Self.records))
    }

    @Test func requestsStayUnderTheByteBoundAndAnEmptyBatchSendsNothing() throws {
        let receiver = try OTLPTestReceiver()
        var options = OTLPHTTPSink.Options()
        options.maxRequestBytes = 20_000
        let sink = OTLPHTTPSink(endpoint: receiver.endpoint, host: "h", options: options)
        try sink.deliver([])
        #expect(receiver.requests.isEmpty)
        let big = (0..<6).map { LogRecord(timestamp: Int64($0), eventMessage: String(repeating: "é", count: 4000 + $0)) }
        let huge = LogRecord(timestamp: 9, eventMessage: String(repeating: "x", count: 50_000))
        try sink.deliver(big + [huge])
        // Two 8 KB messages fit under 20,000 bytes; the one larger than the bound still goes, alone.
        #expect(receiver.requests.count == 4)
        #expect(try receiver.requests.map { try gunzipBytes($0.body).count }.allSatisfy { $0 < 70_000 })
        #expect(keys(try acceptedRecords(receiver)) == keys(big + [huge]))
    }

    @Test func aReceiverThatNeverAnswersTimesOutAsRetryable() throws {
        let receiver = try OTLPTestReceiver(replies: [.hang])
        let sink = sink(receiver, timeout: 1)
        guard case .retryable(let reason, nil)? = deliveryError({ try sink.deliver([Self.records[0]]) }) else {
            Issue.record("a timeout is retryable")
            return
        }
        #expect(reason.hasPrefix("\(receiver.endpoint.absoluteString): no response ("))
        try sink.deliver([Self.records[0]])
        #expect(receiver.requests.count == 2)
    }

    @Test func cancellingAbandonsARequestInFlight() throws {
        let receiver = try OTLPTestReceiver(replies: [.hang])
        let cancellation = ForwardCancellation()
        var options = OTLPHTTPSink.Options()
        options.requestTimeout = 600
        let sink = OTLPHTTPSink(endpoint: receiver.endpoint, host: "h", options: options, cancellation: cancellation)
        let cancelling = Thread {
            while receiver.requests.isEmpty { usleep(10_000) }
            cancellation.cancel()
        }
        cancelling.start()
        // Returns only because of the cancellation: the receiver never answers, the timeout is 10 minutes.
        guard case .retryable(let reason, nil)? = deliveryError({ try sink.deliver([Self.records[0]]) }) else {
            Issue.record("a cancelled delivery is retryable")
            return
        }
        #expect(reason.hasPrefix("\(receiver.endpoint.absoluteString): no response ("))
    }

    @Test func anOTLPSchemeEndpointIsPostedOverHTTP() throws {
        let receiver = try OTLPTestReceiver()
        let sink = OTLPHTTPSink(endpoint: URL(string: "otlp+http://127.0.0.1:\(receiver.port)/v1/logs")!, host: "h")
        try sink.deliver(Array(Self.records.prefix(3)))
        #expect(sink.endpoint.absoluteString == "http://127.0.0.1:\(receiver.port)/v1/logs")
        #expect(try acceptedRecords(receiver).count == 3)
    }

    @Test func a503WithRetryAfterIsRetriedWithoutLossOrDuplicates() throws {
        let receiver = try OTLPTestReceiver(replies: [.status(200), .status(503, headers: ["Retry-After": "1"], body: #"{"message":"overloaded"}"#)])
        let sink = sink(receiver)
        let error = deliveryError { try sink.deliver(Self.records) }
        #expect(error == .retryable(reason: "\(receiver.endpoint.absoluteString): HTTP 503: overloaded", after: 1))
        // The forwarder retries the same batch: the part already accepted is not sent again.
        try sink.deliver(Self.records)
        #expect(receiver.requests.count == 4)
        #expect(keys(try acceptedRecords(receiver)) == keys(Self.records))
    }

    @Test(arguments: [429, 502, 503, 504])
    func theRetryableStatusesAreRetryable(status: Int) throws {
        let receiver = try OTLPTestReceiver(replies: [.status(status, body: "")])
        let sink = sink(receiver)
        let error = deliveryError { try sink.deliver(Array(Self.records.prefix(10))) }
        #expect(error == .retryable(reason: "\(receiver.endpoint.absoluteString): HTTP \(status)", after: nil))
        try sink.deliver(Array(Self.records.prefix(10)))
        #expect(keys(try acceptedRecords(receiver)) == keys(Array(Self.records.prefix(10))))
    }

    @Test(arguments: [400, 401, 404, 413, 500])
    func otherFailuresAreRejectedAndNeverRetried(status: Int) throws {
        let receiver = try OTLPTestReceiver(replies: [.status(status, body: #"{"code":3,"message":"bad timeUnixNano"}"#)])
        let sink = sink(receiver)
        let error = deliveryError { try sink.deliver(Array(Self.records.prefix(10))) }
        #expect(error == .rejected(reason: "\(receiver.endpoint.absoluteString): HTTP \(status): bad timeUnixNano"))
        #expect(receiver.requests.count == 1)
    }

    @Test func aHugeRetryAfterIsCapped() throws {
        let receiver = try OTLPTestReceiver(replies: [
            .status(429, headers: ["Retry-After": String(repeating: "9", count: 400)], body: ""),
            .status(503, headers: ["Retry-After": "Fri, 31 Dec 9999 23:59:59 GMT"], body: ""),
        ])
        let sink = sink(receiver)
        for _ in 0..<2 {
            guard case .retryable(_, let after)? = deliveryError({ try sink.deliver([Self.records[0]]) }) else {
                Issue.record("not retryable")
                continue
            }
            #expect(after == sink.options.maxRetryAfter)
        }
    }

    @Test func retryAfterReadsSecondsAndTheThreeHTTPDateForms() {
        let now = Date(timeIntervalSince1970: 784_111_777 - 90)
        #expect(OTLPHTTPOutcome.retryDelay("120", now: now) == 120)
        #expect(OTLPHTTPOutcome.retryDelay(" 0 ", now: now) == 0)
        #expect(OTLPHTTPOutcome.retryDelay("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 90)
        #expect(OTLPHTTPOutcome.retryDelay("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == 90)
        #expect(OTLPHTTPOutcome.retryDelay("Sun Nov  6 08:49:37 1994", now: now) == 90)
        #expect(OTLPHTTPOutcome.retryDelay("Sun, 06 Nov 1994 08:49:37 GMT", now: now.addingTimeInterval(1000)) == 0)
        for refused in ["", "soon", "-5", "1.5", "12abc"] {
            #expect(OTLPHTTPOutcome.retryDelay(refused, now: now) == nil)
        }
    }

    @Test func aReceiverClosingMidResponseIsRetriedWithTheSameRecords() throws {
        let receiver = try OTLPTestReceiver(replies: [.closeMidResponse])
        let sink = sink(receiver)
        let batch = Array(Self.records.prefix(50))
        guard case .retryable(let reason, nil)? = deliveryError({ try sink.deliver(batch) }) else {
            Issue.record("not retryable without a delay")
            return
        }
        #expect(reason.hasPrefix("\(receiver.endpoint.absoluteString): no response"))
        try sink.deliver(batch)
        #expect(receiver.requests.count == 2)
        #expect(try gunzipBytes(receiver.requests[0].body) == gunzipBytes(receiver.requests[1].body))
        #expect(keys(try acceptedRecords(receiver)) == keys(batch))
    }

    @Test func garbageAnswersAreHandled() throws {
        let binary: [UInt8] = [0x00, 0xff, 0x1b, 0x5b, 0x32, 0x4a, 0x07] + Array("HTTP/1.1\r\n".utf8)
        let receiver = try OTLPTestReceiver(replies: [
            .status(200, body: "\u{1b}[2J not json at all"),
            .raw(Array("garbage that is not HTTP\r\n\r\n".utf8) + binary),
            .status(503, body: "\u{1b}[2J\u{07}down\n\n" + String(repeating: "x", count: 5000)),
        ])
        let sink = sink(receiver)
        let reports = Reports()
        sink.report = { reports.add($0) }
        try sink.deliver([Self.records[0]])
        #expect(reports.all.count == 1)
        #expect(reports.all.first?.contains("not an ExportLogsServiceResponse; the records count as delivered") == true)
        #expect(deliveryError { try sink.deliver([Self.records[1]]) }.map { if case .retryable = $0 { true } else { false } } == true)
        guard case .retryable(let reason, _)? = deliveryError({ try sink.deliver([Self.records[1]]) }) else {
            Issue.record("a 503 is retryable")
            return
        }
        #expect(!reason.unicodeScalars.contains { $0.properties.generalCategory == .control })
        #expect(reason.count < 300)
        #expect(reason.contains("HTTP 503: [2J down"))
    }

    @Test func aHugeResponseBodyIsReadButNotKept() throws {
        let huge = String(repeating: "{\"partialSuccess\":", count: 300_000)
        let receiver = try OTLPTestReceiver(replies: [.status(200, body: huge), .status(503, body: huge)])
        let transport = OTLPHTTPTransport(requestTimeout: 10)
        let exchange = transport.post(Data(try GzipEncoder().compress(Array("{}".utf8))), to: receiver.endpoint, cancellation: nil)
        #expect(exchange.status == 200)
        #expect(exchange.body.count == OTLPHTTPTransport.maxResponseBytes)
        let sink = sink(receiver)
        guard case .retryable(let reason, nil)? = deliveryError({ try sink.deliver([Self.records[0]]) }) else {
            Issue.record("a 503 is retryable")
            return
        }
        #expect(reason.count < 300)
    }

    @Test func aPartialSuccessIsReportedAndNotRetried() throws {
        let receiver = try OTLPTestReceiver(replies: [
            .status(200, body: #"{"partialSuccess":{"rejectedLogRecords":"2","errorMessage":"too old"}}"#),
            .status(200, body: #"{"partialSuccess":{"errorMessage":"deprecated attribute"}}"#),
            .status(200, body: #"{"partialSuccess":{}}"#),
        ])
        let sink = sink(receiver)
        let reports = Reports()
        sink.report = { reports.add($0) }
        for _ in 0..<3 { try sink.deliver(Array(Self.records.prefix(10))) }
        #expect(receiver.requests.count == 3)
        #expect(sink.statistics.rejectedRecords == 2)
        #expect(reports.all == [
            "\(receiver.endpoint.absoluteString): the receiver refused 2 of 10 log records: too old",
            "\(receiver.endpoint.absoluteString): the receiver refused 0 of 10 log records: deprecated attribute",
        ])
    }

    @Test func aReceiverThatIsDownIsRetryableAndTheSinkRecovers() throws {
        let receiver = try OTLPTestReceiver()
        let endpoint = receiver.endpoint
        receiver.stop()
        let sink = OTLPHTTPSink(endpoint: endpoint, host: "h")
        guard case .retryable(let reason, nil)? = deliveryError({ try sink.deliver([Self.records[0]]) }) else {
            Issue.record("a refused connection is retryable")
            return
        }
        #expect(reason.hasPrefix("\(endpoint.absoluteString): no response ("))
        sink.close()
        let other = try OTLPTestReceiver()
        let recovered = self.sink(other)
        try recovered.deliver([Self.records[0]])
        recovered.close()
        try recovered.deliver([Self.records[1]])
        #expect(try acceptedRecords(other).count == 2)
    }
}

/// Messages a sink reported.
final class Reports: @unchecked Sendable {
    // Safe: every access holds `lock`.
    private let lock = NSLock()
    private var messages: [String] = []

    func add(_ message: String) { lock.withLock { messages.append(message) } }
    var all: [String] { lock.withLock { messages } }
}
