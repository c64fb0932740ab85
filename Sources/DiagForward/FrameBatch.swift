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
    /// Owns the memory; never written again.
    private var writer: ByteWriter?
    /// The writer's bytes (its memory stays put while the batch holds it).
    private let frames: UnsafeBufferPointer<UInt8>
    private let pool: FrameBufferPool?

    init(writer: consuming ByteWriter, pool: FrameBufferPool?) {
        frames = writer.bytes
        self.writer = .some(writer)
        self.pool = pool
    }

    /// A batch holding a copy of `frames`.
    public convenience init(_ frames: [UInt8]) {
        var writer = ByteWriter(capacity: frames.count)
        writer.append(frames)
        self.init(writer: writer, pool: nil)
    }

    /// The memory goes back to the pool (or is freed, with the writer, when there is none).
    deinit {
        if let pool, let writer = writer.take() { pool.recycle(writer) }
    }

    /// The frames' length in bytes.
    public var count: Int { frames.count }

    /// The frames, valid only inside `body`.
    public func withBytes<Result, Failure: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result) throws(Failure) -> Result {
        try body(frames)
    }

    /// A copy of the frames.
    public var bytes: [UInt8] { Array(frames) }
}

/// Frame buffers given back by the batches no longer held, for the next batches: a forward
/// keeps a steady number of batches (read ahead, being sent, in the replay window), so once
/// that many buffers exist no more are made.
final class FrameBufferPool: @unchecked Sendable {
    // Safe: `free` is touched only under `lock` (a `FieldLock`: raw pointers are not
    // `Sendable`); a buffer is in `free` or owned by one batch's or one encoder's writer, never two.
    private let lock = FieldLock()
    private var free: [(base: UnsafeMutablePointer<UInt8>, capacity: Int)] = []
    /// Buffers kept at most, and the largest kept (a batch of huge messages is not held on to).
    static let keptBuffers = 4
    static let largestKept = 4 << 20

    deinit {
        for storage in free { storage.base.deallocate() }
    }

    /// An empty buffer: one given back, else a new one of `capacity` bytes.
    func take(capacity: Int) -> ByteWriter {
        guard let kept = lock.withLock({ free.popLast() }) else { return ByteWriter(capacity: capacity) }
        return ByteWriter(adopting: kept.base, capacity: kept.capacity)
    }

    /// Keeps the writer's memory for a later batch, or frees it (a large buffer, or enough kept).
    func recycle(_ writer: consuming ByteWriter) {
        guard writer.capacity <= Self.largestKept else { return }
        let storage = writer.takeStorage()
        let kept = lock.withLock {
            guard free.count < Self.keptBuffers else { return false }
            free.append(storage)
            return true
        }
        if !kept { storage.base.deallocate() }
    }
}
