import DiagModel

/// One receiver in one encoding (RFC 5424 over TCP, OTLP/HTTP). The forwarder calls `deliver`
/// from one thread at a time, with committed records in the store's order.
public protocol ForwardSink: AnyObject {
    /// Delivers the records in order and returns once the receiver accepted all of them; the
    /// caller then advances its persisted cursor past them. Throws `ForwardError`.
    func deliver(_ records: [LogRecord]) throws
    /// Releases the connection; a later `deliver` may open a new one.
    func close()
    /// Called about once a second while no records wait to be delivered: a sink whose
    /// connection can lose what it already sent checks it, and sends again what the receiver
    /// lost. Throws `ForwardError` when it cannot yet (the forwarder tries again a second later).
    func keepAlive() throws
}

extension ForwardSink {
    /// Nothing to check: a delivery returns only once the receiver has the records.
    public func keepAlive() throws {}
}

/// A sink that takes RFC 5424 frames: the forwarder writes them straight from the store's rows
/// with `frameEncoder`, on the thread that reads the store, while the previous batch is sent.
public protocol PreEncodingForwardSink: ForwardSink {
    /// How the records are encoded.
    var frameEncoder: RFC5424Encoder { get }
    /// Delivers a batch of `frameEncoder`'s frames, as `deliver(_:)` delivers records.
    func deliver(encoded: FrameBatch) throws
}

/// Why a delivery failed, and what the forwarder does about it.
public enum ForwardError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Transient (receiver down, connection reset, HTTP 503): the forwarder waits — `after`
    /// seconds when the receiver said so (`Retry-After`), else its back-off — and retries the
    /// same batch.
    case retryable(reason: String, after: Double?)
    /// Permanent (e.g. HTTP 400): the forwarder logs it, counts the records as rejected, skips
    /// the batch and never retries it.
    case rejected(reason: String)

    public var description: String {
        switch self {
        case let .retryable(reason, after):
            after.map { "\(reason) (retry after \($0) s)" } ?? reason
        case let .rejected(reason):
            "rejected: \(reason)"
        }
    }
}
