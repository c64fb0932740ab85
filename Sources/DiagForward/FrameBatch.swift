import DiagModel
import Foundation

/// A batch of octet-counted frames in memory of its own: written in place by the reading thread
/// (`RFC5424RowEncoder`), then sent and kept in the sink's replay window without a copy. When
/// the last holder lets it go, its memory goes back to the pool it came from, and a later batch
/// is written into pages already mapped: a fresh megabyte per batch (an array copied from the
/// encoder's buffer) cost a copy and a page fault every 4 KiB, ~5% of the forward's CPU.
///
/// Written only before it is handed to the delivering thread (through the read-ahead queue,
/// under its lock), read only after.
public final class FrameBatch {
    private var writer: ByteWriter
    private let pool: FrameBufferPool?

    init(writer: ByteWriter, pool: FrameBufferPool?) {
        self.writer = writer
        self.pool = pool
    }

    /// A batch holding a copy of `frames`.
    public convenience init(_ frames: [UInt8]) {
        var writer = ByteWriter(capacity: frames.count)
        writer.append(frames)
        self.init(writer: writer, pool: nil)
    }

    deinit {
        if let pool { pool.recycle(writer) } else { writer.deallocate() }
    }

    /// The frames' length in bytes.
    public var count: Int { writer.count }

    /// The frames, valid only inside `body`.
    public func withBytes<Result, Failure: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result) throws(Failure) -> Result {
        try body(writer.bytes)
    }

    /// A copy of the frames.
    public var bytes: [UInt8] { Array(writer.bytes) }
}

/// Frame buffers given back by the batches no longer held, for the next batches: a forward
/// keeps a steady number of batches (read ahead, being sent, in the replay window), so once
/// that many buffers exist no more are made.
final class FrameBufferPool: @unchecked Sendable {
    // Safe: `free` is touched only under `lock` (a `FieldLock`: a `ByteWriter` is not
    // `Sendable`); a buffer is in `free` or owned by one batch or one encoder, never two.
    private let lock = FieldLock()
    private var free: [ByteWriter] = []
    /// Buffers kept at most, and the largest kept (a batch of huge messages is not held on to).
    static let keptBuffers = 4
    static let largestKept = 4 << 20

    deinit {
        for writer in free { writer.deallocate() }
    }

    /// An empty buffer: one given back, else a new one of `capacity` bytes.
    func take(capacity: Int) -> ByteWriter {
        let kept = lock.withLock { free.popLast() }
        return kept ?? ByteWriter(capacity: capacity)
    }

    func recycle(_ writer: ByteWriter) {
        var writer = writer
        writer.count = 0
        let kept = writer.capacity <= Self.largestKept && lock.withLock {
            guard free.count < Self.keptBuffers else { return false }
            free.append(writer)
            return true
        }
        if !kept { writer.deallocate() }
    }
}
