import DiagModel
import DiagForward
import Foundation

/// Forwards records to an OpenTelemetry receiver over OTLP/HTTP (`otlp+http://HOST:PORT/v1/logs`):
/// each batch as `ExportLogsServiceRequest` JSON, gzip-compressed, POSTed through `URLSession`.
///
/// A batch larger than `maxRecordsPerRequest` or `maxRequestBytes` goes out as several requests;
/// when a later one fails, the parts already accepted are not sent again if the forwarder retries
/// the same batch. Statuses 429/502/503/504 and lost connections throw `ForwardError.retryable`
/// (with `Retry-After`, capped at `maxRetryAfter`); other failures throw `.rejected`. A partial
/// success is accepted (never retried, as OTLP requires) and reported.
///
/// Not thread-safe: the forwarder delivers from one thread at a time (`ForwardSink`).
public final class OTLPHTTPSink: ForwardSink {
    public struct Options: Sendable {
        public var maxRecordsPerRequest = 1000
        /// Uncompressed JSON per request; OTLP recommends receivers accept at least 20 MiB.
        public var maxRequestBytes = 4 << 20
        public var requestTimeout: TimeInterval = 30
        public var maxRetryAfter: Double = 300
        public init() {}
    }

    /// Counts since the sink was made.
    public struct Statistics: Sendable, Hashable {
        public var requests = 0
        public var acceptedRecords = 0
        /// Records a receiver refused in a partial success.
        public var rejectedRecords: Int64 = 0
    }

    public let endpoint: URL
    public let options: Options
    public private(set) var statistics = Statistics()
    /// Where partial successes and unreadable responses are reported; standard error by default.
    public var report: (String) -> Void = { message in
        FileHandle.standardError.write(Data("diagd: \(message)\n".utf8))
    }

    private let encoder: OTLPLogsEncoder
    private let cancellation: ForwardCancellation?
    private var gzip: GzipEncoder?
    private var transport: OTLPHTTPTransport?
    /// The start of the last batch that the receiver accepted before a later request failed.
    private var acceptedPrefix: ArraySlice<LogRecord> = []

    /// - Parameters:
    ///   - endpoint: `http://HOST:PORT/v1/logs` (an `otlp+http` scheme is read as `http`).
    ///   - host: `host.name` of the resource the records come from.
    ///   - cancellation: when cancelled (diagd stopping), a request in flight is abandoned and
    ///     `deliver` throws `.retryable` at once instead of waiting for the answer.
    /// Makes `ForwardDestination.makeSink` build this sink for `otlp+http` destinations.
    public static func register() {
        ForwardDestination.httpSinkFactory.withLock {
            $0 = { endpoint, host, cancellation in OTLPHTTPSink(endpoint: endpoint, host: host, cancellation: cancellation) }
        }
    }

    public convenience init(endpoint: URL, host: String, cancellation: ForwardCancellation? = nil) {
        self.init(endpoint: endpoint, host: host, options: Options(), cancellation: cancellation)
    }

    public init(endpoint: URL, host: String, options: Options, cancellation: ForwardCancellation? = nil) {
        self.cancellation = cancellation
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)
        if components?.scheme?.lowercased() == "otlp+http" { components?.scheme = "http" }
        self.endpoint = components?.url ?? endpoint
        self.options = options
        encoder = OTLPLogsEncoder(hostName: host)
    }

    public func deliver(_ records: [LogRecord]) throws {
        var start = 0
        if !acceptedPrefix.isEmpty, acceptedPrefix.count <= records.count, records.starts(with: acceptedPrefix) {
            start = acceptedPrefix.count
        }
        acceptedPrefix = []
        while start < records.count {
            let end = requestEnd(records, from: start)
            do {
                try send(records[start..<end])
            } catch {
                acceptedPrefix = records[..<start]
                throw error
            }
            start = end
        }
    }

    public func close() {
        transport?.cancel()
        transport = nil
    }

    /// The end of the next request's records: at most `maxRecordsPerRequest`, and about
    /// `maxRequestBytes` of JSON (a single larger record still goes, alone).
    private func requestEnd(_ records: [LogRecord], from start: Int) -> Int {
        var end = start
        var bytes = 0
        while end < records.count, end - start < options.maxRecordsPerRequest {
            let record = records[end]
            bytes += 600 + record.eventMessage.utf8.count + (record.formatString?.utf8.count ?? 0)
                + (record.metadata.map { _ in 256 } ?? 0)
            if bytes > options.maxRequestBytes, end > start { break }
            end += 1
        }
        return end
    }

    private func send(_ records: ArraySlice<LogRecord>) throws {
        let json = encoder.request(for: records)
        let body: [UInt8]
        do {
            if gzip == nil { gzip = try GzipEncoder() }
            body = try gzip!.compress(json)
        } catch {
            throw ForwardError.retryable(reason: "\(endpoint.absoluteString): cannot compress the request: \(error)", after: nil)
        }
        if transport == nil { transport = OTLPHTTPTransport(requestTimeout: options.requestTimeout) }
        let exchange = transport!.post(Data(body), to: endpoint, cancellation: cancellation)
        statistics.requests += 1
        switch OTLPHTTPOutcome(exchange, endpoint: endpoint.absoluteString, maxRetryAfter: options.maxRetryAfter) {
        case .accepted(let partial, let unreadable):
            statistics.acceptedRecords += records.count
            if let partial {
                statistics.rejectedRecords += partial.rejectedLogRecords
                let message = partial.errorMessage.isEmpty ? "" : ": \(partial.errorMessage)"
                report("\(endpoint.absoluteString): the receiver refused \(partial.rejectedLogRecords) of \(records.count) log records\(message)")
            }
            if unreadable {
                report("\(endpoint.absoluteString): HTTP \(exchange.status ?? 0) with a body that is not an ExportLogsServiceResponse; the records count as delivered")
            }
        case .retry(let reason, let after):
            // A connection that failed mid-exchange is not reused.
            if exchange.status == nil { close() }
            throw ForwardError.retryable(reason: reason, after: after)
        case .refused(let reason):
            throw ForwardError.rejected(reason: reason)
        }
    }
}

@available(*, unavailable)
extension OTLPHTTPSink: Sendable {}
