import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// What one OTLP/HTTP POST came back with: a status, or the transport error that stood in
/// for one (refused, reset, timed out, cut mid-response).
struct OTLPHTTPExchange: Sendable {
    var status: Int?
    var retryAfter: String?
    var contentType: String?
    var body: Data
    var failure: String?
}

/// Posts bodies through one `URLSession` (keep-alive between requests) and waits for the
/// answer, so the forwarder's thread gets a plain synchronous call.
///
/// Not thread-safe: the sink posts from one thread; `cancel()` may come from another.
final class OTLPHTTPTransport {
    private let session: URLSession
    private let pending = Mutex<URLSessionDataTask?>(nil)

    init(requestTimeout: TimeInterval) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = requestTimeout
        configuration.timeoutIntervalForResource = requestTimeout * 2
        configuration.httpMaximumConnectionsPerHost = 1
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration)
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
        let outcome = OutcomeSlot()
        let task = session.dataTask(with: request) { data, response, error in
            let http = response as? HTTPURLResponse
            outcome.fill(OTLPHTTPExchange(
                status: error == nil ? http?.statusCode : nil,
                retryAfter: http?.value(forHTTPHeaderField: "Retry-After"),
                contentType: http?.value(forHTTPHeaderField: "Content-Type"),
                body: data ?? Data(),
                failure: error.map { ($0 as NSError).localizedDescription }))
        }
        pending.withLock { $0 = task }
        task.resume()
        var cancelled = false
        while !outcome.wait(seconds: 0.1) {
            if !cancelled, cancellation?.isCancelled == true {
                cancelled = true
                task.cancel()
            }
        }
        let exchange = outcome.wait()
        pending.withLock { $0 = nil }
        return exchange
    }

    /// Ends the request in flight, if any (its `post` returns a failure), and the session.
    func cancel() {
        pending.withLock { $0?.cancel() }
        session.invalidateAndCancel()
    }
}

@available(*, unavailable)
extension OTLPHTTPTransport: Sendable {}

/// The completion handler's answer, handed to the waiting thread.
private final class OutcomeSlot: Sendable {
    private let value = Mutex<OTLPHTTPExchange?>(nil)
    private let filled = DispatchSemaphore(value: 0)

    func fill(_ exchange: OTLPHTTPExchange) {
        value.withLock { $0 = exchange }
        filled.signal()
    }

    /// Whether the answer came within `seconds`.
    func wait(seconds: Double) -> Bool {
        guard filled.wait(timeout: .now() + seconds) == .success else { return false }
        filled.signal()
        return true
    }

    func wait() -> OTLPHTTPExchange {
        filled.wait()
        return value.withLock { $0! }
    }
}
