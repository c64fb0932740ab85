import CMicroHTTPD
import DiagForward
import DiagIngest
import DiagModel
import Foundation
import Synchronization

/// `diagd --otlp-http HOST:PORT`: OTLP/HTTP logs (`POST /v1/logs`, protobuf or JSON, gzip or
/// not) through libmicrohttpd, one thread per connection within `--max-connections`. A request
/// is answered 200 only once its records are committed, so an SDK's retry of anything else is
/// the acknowledgement; docs/OTLP-RECEIVER.md has the status codes and the mapping.
public final class OTLPHTTPReceiver: IngestListener {
    /// A connection idle this long (a client that sent its headers, then nothing) is closed.
    static let idleSeconds: UInt32 = 10
    /// How long a request waits for room in the writer's queue (then 429) and for the commit (then 503).
    static let queueWaitSeconds = 2.0
    /// Below the SDKs' default export timeout (10 s), so that they read the answer rather than give up.
    static let commitWaitSeconds = 8.0

    let address: TCPAddress
    private let intake: RecordIntake
    private let maximumConnections: Int
    private let listenDescriptor: Int32
    /// The running `MHD_Daemon`'s address (0 when none): a pointer is not Sendable, its bits are.
    private let daemon = Mutex<UInt>(0)
    private let mapping = OTLPRecordMapping(localHostName: RFC5424Encoder.localHostname())
    private let refusals = RefusalReport()
    /// Bodies inflated and decoded at once. A decoded body takes several times its size (about
    /// 160 MiB at worst within the decoders' bounds): with `--max-connections` of them at once memory
    /// would follow the connection count, so the others wait here, their bodies read but not yet
    /// decoded. Decoding is CPU work: more at once than cores would not go faster.
    private let decoding = DispatchSemaphore(value: 2)

    /// What diagd's options make: the address is bound at once, so a taken port fails the start.
    public static func factory(address text: String, allowRemote: Bool, maximumConnections: Int) -> IngestListenerFactory {
        { intake in try OTLPHTTPReceiver(address: text, allowRemote: allowRemote, intake: intake, maximumConnections: maximumConnections) }
    }

    init(address text: String, allowRemote: Bool, intake: RecordIntake, maximumConnections: Int) throws(IngestError) {
        address = try Self.address(text, allowRemote: allowRemote)
        self.intake = intake
        self.maximumConnections = maximumConnections
        listenDescriptor = try address.listen()
    }

    /// The `--otlp-http` value as an address, refused when others can reach it and that was not asked for.
    public static func address(_ text: String, allowRemote: Bool) throws(IngestError) -> TCPAddress {
        let address = try TCPAddress(parsing: text, option: "--otlp-http")
        guard address.isLoopback || allowRemote else {
            throw IngestError("--otlp-http '\(text)': \(address.host) is reachable from other machines and the receiver has no authentication; listen on 127.0.0.1 or ::1, or add --otlp-http-allow-remote to mean it")
        }
        return address
    }

    public var summary: String { "OTLP/HTTP on http://\(address)\(OTLPExchange.path)" }

    public func start() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let started = diag_mhd_start(
            listenDescriptor,
            { context, connection, url, method, _, upload, uploadSize, state in
                guard let context, let connection, let uploadSize, let state else { return .NO }
                let receiver = Unmanaged<OTLPHTTPReceiver>.fromOpaque(context).takeUnretainedValue()
                return receiver.handle(
                    connection, path: url.map { String(cString: $0) } ?? "", method: method.map { String(cString: $0) } ?? "",
                    upload: upload, uploadSize: uploadSize, state: state) ? .YES : .NO
            },
            context,
            { _, _, state, _ in
                guard let state, let exchange = state.pointee else { return }
                Unmanaged<OTLPExchange>.fromOpaque(exchange).release()
                state.pointee = nil
            },
            UInt32(clamping: maximumConnections), Self.idleSeconds, 1 << 20)
        if started == nil {
            intake.log(.fault, "otlp-http: libmicrohttpd could not start on \(address) (errno \(errno)); OTLP requests are not taken", category: "otlp")
            close(listenDescriptor)
        }
        daemon.withLock { $0 = UInt(bitPattern: started) }
    }

    public func stop() {
        guard let running = OpaquePointer(bitPattern: daemon.withLock({ state -> UInt in defer { state = 0 }; return state })) else { return }
        // Closes the listening socket and every connection, and joins their threads.
        MHD_stop_daemon(running)
        refusals.flush(into: intake)
    }

    /// libmicrohttpd's access handler: called once with the headers, then with each piece of the
    /// body, then once more with none left; returning false closes the connection.
    private func handle(
        _ connection: OpaquePointer, path: String, method: String, upload: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>, state: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> Bool {
        guard let existing = state.pointee else {
            func header(_ name: String) -> String? {
                MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, name).map { String(cString: $0) }
            }
            let exchange = OTLPExchange(
                path: path, method: method, contentType: header("Content-Type"), contentEncoding: header("Content-Encoding"),
                contentLength: header("Content-Length"))
            state.pointee = Unmanaged.passRetained(exchange).toOpaque()
            if let refusal = exchange.refusal {
                exchange.answered = true
                refused(refusal)
                return send(refusal, on: connection)
            }
            return true
        }
        let exchange = Unmanaged<OTLPExchange>.fromOpaque(existing).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            if let upload { exchange.append(UnsafeRawBufferPointer(start: upload, count: uploadSize.pointee)) }
            uploadSize.pointee = 0
            return true
        }
        guard !exchange.answered else { return true }
        exchange.answered = true
        let answer = answer(exchange)
        if answer.status >= 400 && answer.status < 429 { refused(answer) }
        return send(answer, on: connection)
    }

    /// Decodes, maps and submits a whole body; the answer says what became of it.
    private func answer(_ exchange: OTLPExchange) -> OTLPAnswer {
        let encoding = exchange.encoding
        if exchange.overflowed { return OTLPExchange.tooLarge(announced: nil, encoding: encoding) }
        let decoded: Decoded
        switch decode(exchange) {
        case .success(let value): decoded = value
        case .failure(let refusal): return refusal.answer
        }
        let (records, sizes, refused) = (decoded.records, decoded.sizes, decoded.refused)
        let message = refused.first.map { "\(refused.count) of \(decoded.count) log records refused; the first: \($0)" } ?? ""
        if records.isEmpty { return .success(rejected: refused.count, message: message, encoding: encoding) }
        switch intake.submit(records, sizes: sizes, queueWait: Self.queueWaitSeconds, commitWait: Self.commitWaitSeconds) {
        case .durable:
            return .success(rejected: refused.count, message: message, encoding: encoding)
        case .storeRefusing(let reason):
            return .failure(503, "the store refuses writes (\(reason)); nothing of this request was kept", encoding: encoding, retryAfter: 5)
        case .queueFull:
            return .failure(429, "diagd's writer is behind (its queue stayed full for \(Int(Self.queueWaitSeconds)) s); nothing of this request was kept", encoding: encoding, retryAfter: 1)
        case .notCommittedYet:
            return .failure(503, "the records were queued but not committed within \(Int(Self.commitWaitSeconds)) s; they may still be stored", encoding: encoding, retryAfter: 1)
        case .stopping:
            return .failure(503, "diagd is stopping; nothing of this request was kept", encoding: encoding, retryAfter: 1)
        }
    }

    private struct Decoded {
        var records: [LogRecord]
        var sizes: [Int]
        var refused: [String]
        var count: Int
    }

    private struct Refusal: Error {
        let answer: OTLPAnswer
    }

    /// Inflates, decodes and maps, at most `decoding`'s count at once: memory stays bounded by
    /// that, not by the connections. The semaphore is released before the wait for the commit.
    private func decode(_ exchange: OTLPExchange) -> Result<Decoded, Refusal> {
        let encoding = exchange.encoding
        decoding.wait()
        defer { decoding.signal() }
        var body = exchange.body
        if exchange.gzip {
            do {
                body = try GzipDecoder.inflate(body, limit: OTLPExchange.maximumInflatedBytes)
            } catch .tooLarge {
                return .failure(Refusal(answer: .failure(413, "the gzip body inflates past \(OTLPExchange.maximumInflatedBytes) bytes (16 MiB); send smaller batches", encoding: encoding)))
            } catch {
                return .failure(Refusal(answer: .failure(400, error.description, encoding: encoding)))
            }
        }
        let request: OTLPLogsRequest
        do {
            request = try encoding == .protobuf ? OTLPProtobufDecoder.decode(body) : OTLPJSONDecoder.decode(body)
        } catch {
            return .failure(Refusal(answer: .failure(error.isTooLarge ? 413 : 400, error.description, encoding: encoding)))
        }
        let (records, sizes, refused) = mapping.records(of: request, now: Int64(Date().timeIntervalSince1970 * 1e9))
        return .success(Decoded(records: records, sizes: sizes, refused: refused, count: request.recordCount))
    }

    private func refused(_ answer: OTLPAnswer) {
        intake.countRefusedRequest()
        refusals.add("HTTP \(answer.status): \(String(decoding: answer.body.prefix(300), as: UTF8.self))", intake: intake)
    }

    private func send(_ answer: OTLPAnswer, on connection: OpaquePointer) -> Bool {
        var body = answer.body
        let response = body.withUnsafeMutableBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, bytes.baseAddress, .RESPMEM_MUST_COPY)
        }
        guard let response else { return false }
        defer { MHD_destroy_response(response) }
        MHD_add_response_header(response, "Content-Type", answer.contentType)
        if let seconds = answer.retryAfterSeconds { MHD_add_response_header(response, "Retry-After", "\(seconds)") }
        if let allow = answer.allow { MHD_add_response_header(response, "Allow", allow) }
        return MHD_queue_response(connection, answer.status, response) == .YES
    }
}
