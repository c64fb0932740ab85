import DiagForward
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// The `URLSession` delegate of `OTLPHTTPTransport`: gathers the one exchange under way — the
/// status, two headers and at most `limit` bytes of body (the rest is read and dropped) — and
/// hands it to the thread waiting in `post`.
final class OTLPResponseCollector: NSObject, URLSessionDataDelegate, Sendable {
    private let limit: Int
    private let exchange = Mutex(OTLPHTTPExchange(body: Data()))
    private let done = DispatchSemaphore(value: 0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Clears the slot for a new request.
    func begin() {
        exchange.withLock { $0 = OTLPHTTPExchange(body: Data()) }
    }

    /// Whether the exchange completed within `seconds`.
    func finished(within seconds: Double) -> Bool {
        done.wait(timeout: .now() + seconds) == .success
    }

    func take() -> OTLPHTTPExchange {
        exchange.withLock { $0 }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        if let http = response as? HTTPURLResponse {
            exchange.withLock {
                $0.status = http.statusCode
                $0.retryAfter = http.value(forHTTPHeaderField: "Retry-After")
                $0.contentType = http.value(forHTTPHeaderField: "Content-Type")
            }
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange.withLock { exchange in
            let room = limit - exchange.body.count
            if room > 0 { exchange.body.append(data.prefix(room)) }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            exchange.withLock {
                // A status without its whole body is no answer: the receiver may not have kept the records.
                $0.status = nil
                $0.failure = (error as NSError).localizedDescription
            }
        }
        done.signal()
    }
}
