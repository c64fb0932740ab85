import DiagModel

/// Sends records to a syslog receiver (rsyslog's `imtcp`, syslog-ng's `network()`) as RFC 5424
/// messages with octet-counted framing over one TCP connection.
///
/// Plain TCP has no acknowledgement from the receiving program: a batch counts as delivered once
/// the kernel took it, so the forwarder's cursor can pass records that a receiver stopping then
/// drops (unsent, or read by its kernel but not by it). The sink therefore keeps the frames of
/// its last `replayBytes` bytes (plus what the peer's TCP has not acknowledged) and sends them
/// again first on the next connection: duplicates, never gaps (docs/FORWARDING.md).
public final class RFC5424TCPSink: PreEncodingForwardSink {
    public let host: String
    public let port: UInt16
    public let encoder: RFC5424Encoder
    /// The acknowledged bytes kept for sending again after a broken connection: at least the
    /// receive buffer a receiver may hold unread (Linux autotunes it up to 6 MiB).
    public let replayBytes: Int
    private let cancellation: ForwardCancellation
    private let connectTimeout: Double
    private let writeTimeout: Double
    private var connection: TCPConnection?
    private var replay = ReplayWindow()
    /// Whether the replay window must go out before new records (a connection broke).
    private var replayPending = false

    public init(
        host: String, port: UInt16, encoder: RFC5424Encoder, replayBytes: Int = 8 << 20,
        connectTimeout: Double = 5, writeTimeout: Double = 60, cancellation: ForwardCancellation = ForwardCancellation()
    ) {
        self.host = host
        self.port = port
        self.encoder = encoder
        self.replayBytes = replayBytes
        self.connectTimeout = connectTimeout
        self.writeTimeout = writeTimeout
        self.cancellation = cancellation
    }

    public func deliver(_ records: [LogRecord]) throws {
        var frames: [UInt8] = []
        frames.reserveCapacity(records.count * 512)
        for record in records { encoder.appendFrame(for: record, to: &frames) }
        try deliver(encoded: FrameBatch(frames))
    }

    public var frameEncoder: RFC5424Encoder { encoder }

    public func deliver(encoded frames: FrameBatch) throws {
        if let open = connection, open.isClosedByPeer {
            connection = nil
            replayPending = true
        }
        let live: TCPConnection
        if let open = connection {
            live = open
        } else {
            do {
                live = try TCPConnection.connect(host: host, port: port, timeout: connectTimeout, cancellation: cancellation)
            } catch {
                replayPending = replayPending || !replay.isEmpty
                throw error
            }
            connection = live
        }
        do {
            if replayPending {
                for frames in replay.batches { try live.write(frames, timeout: writeTimeout, cancellation: cancellation) }
                replayPending = false
            }
            try live.write(frames, timeout: writeTimeout, cancellation: cancellation)
        } catch {
            connection = nil
            replayPending = !replay.isEmpty
            throw error
        }
        replay.append(frames, keeping: replayBytes + live.unacknowledgedBytes)
    }

    public func close() {
        connection = nil
    }
}

/// The last frames sent, whole batches, trimmed to a byte budget from the oldest.
struct ReplayWindow {
    private(set) var batches: [FrameBatch] = []
    private var byteCount = 0

    var isEmpty: Bool { byteCount == 0 }

    /// Keeps `frames` and drops the oldest batches beyond `budget` bytes.
    mutating func append(_ frames: FrameBatch, keeping budget: Int) {
        byteCount += frames.count
        batches.append(frames)
        var drop = 0
        while drop < batches.count - 1, byteCount - batches[drop].count >= budget {
            byteCount -= batches[drop].count
            drop += 1
        }
        if drop > 0 { batches.removeFirst(drop) }
    }
}
