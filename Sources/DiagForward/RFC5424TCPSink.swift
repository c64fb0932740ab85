import DiagModel
import Foundation

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
    /// receive buffer a receiver may hold unread (`defaultReplayBytes`).
    public let replayBytes: Int
    private let cancellation: ForwardCancellation
    private let connectTimeout: Double
    private let writeTimeout: Double
    private var connection: TCPConnection?
    private var replay = ReplayWindow()
    /// Whether the replay window must go out before new records (a connection broke).
    private var replayPending = false

    public init(
        host: String, port: UInt16, encoder: RFC5424Encoder, replayBytes: Int = RFC5424TCPSink.defaultReplayBytes,
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
        let live = try connectAndReplay()
        do {
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

    /// While nothing new is sent: a receiver that died or restarted since the last batch lost
    /// what its kernel had taken for it, and a forward that has caught up would otherwise send
    /// it again only with the next record, whenever one comes. Reconnects and sends the replay
    /// window now.
    public func keepAlive() throws {
        guard connection != nil || replayPending else { return }
        _ = try connectAndReplay()
    }

    /// The open connection, after a broken one is replaced and sent the replay window first.
    private func connectAndReplay() throws -> TCPConnection {
        if let open = connection, open.isClosedByPeer {
            connection = nil
            replayPending = !replay.isEmpty
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
        if replayPending {
            do {
                for frames in replay.batches { try live.write(frames, timeout: writeTimeout, cancellation: cancellation) }
            } catch {
                connection = nil
                throw error
            }
            replayPending = false
        }
        return live
    }

    /// 8 MiB, or more when this machine lets a TCP receive buffer grow larger, up to 64 MiB: a
    /// stalled receiver's kernel acknowledges (and a killed one drops) up to that much. Linux's
    /// default maximum is 6 MiB, but some kernels set 32 MiB (`net.ipv4.tcp_rmem`, as on the
    /// machine where the kill test lost 32,900 records behind an 8 MiB window). The receiver's
    /// own maximum is not known from here; this machine's is the one loopback and most fleets
    /// share.
    public static let defaultReplayBytes = replayBytes(
        receiveBufferLimit: TCPReceiveBufferLimit.maximum(ofSetting: try? String(contentsOfFile: "/proc/sys/net/ipv4/tcp_rmem", encoding: .utf8)))

    /// The replay budget for a receive buffer limit (nil when unknown).
    static func replayBytes(receiveBufferLimit: Int?) -> Int {
        min(64 << 20, max(8 << 20, receiveBufferLimit ?? 0))
    }
}

/// The largest TCP receive buffer Linux autotunes to: the third number of `net.ipv4.tcp_rmem`
/// (`minimum default maximum`, in bytes).
enum TCPReceiveBufferLimit {
    /// The maximum from the setting's text; nil when the text is not three non-negative numbers.
    static func maximum(ofSetting text: String?) -> Int? {
        guard let fields = text?.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }), fields.count == 3 else { return nil }
        let values = fields.compactMap { Int($0) }
        guard values.count == 3, values.allSatisfy({ $0 >= 0 }) else { return nil }
        return values[2]
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
