import DiagForward
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What one OTLP/HTTP POST came back with: a status, or the transport error that stood in
/// for one (refused, reset, timed out, cut mid-response).
struct OTLPHTTPExchange: Sendable {
    var status: Int?
    var retryAfter: String?
    var contentType: String?
    /// The start of the response body, at most `OTLPHTTPTransport.maxResponseBytes`.
    var body: Data
    var failure: String?
}

/// Posts bodies through one `URLSession` (keep-alive between requests) and waits for the
/// answer, so the forwarder's thread gets a plain synchronous call.
///
/// Not thread-safe: the sink posts from one thread at a time.
final class OTLPHTTPTransport {
    /// An OTLP response is a few hundred bytes; a receiver sending more cannot make diagd hold it.
    static let maxResponseBytes = 64 * 1024

    private let session: URLSession
    private let collector = OTLPResponseCollector(limit: maxResponseBytes)

    init(requestTimeout: TimeInterval) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = requestTimeout
        configuration.timeoutIntervalForResource = requestTimeout * 2
        configuration.httpMaximumConnectionsPerHost = 1
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
    }

    /// POSTs `body` (already gzip-compressed JSON) to `endpoint` and waits for the response;
    /// `cancellation` ends the wait early (diagd stopping), as a failure.
    func post(_ body: Data, to endpoint: URL, cancellation: ForwardCancellation?) -> OTLPHTTPExchange {
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("gzip", forHTTPHeaderField: "Content-Encoding")
        request.setValue("diagd/OTLP-HTTP-JSON", forHTTPHeaderField: "User-Agent")
        let task = session.dataTask(with: request)
        collector.begin()
        task.resume()
        var cancelled = false
        while !collector.finished(within: 0.1) {
            if !cancelled, cancellation?.isCancelled == true {
                cancelled = true
                task.cancel()
            }
        }
        return collector.take()
    }

    /// Ends the session and the request in flight, if any.
    func cancel() {
        session.invalidateAndCancel()
    }

    deinit {
        // A session keeps its delegate until invalidated.
        session.invalidateAndCancel()
    }
}

@available(*, unavailable)
extension OTLPHTTPTransport: Sendable {}
