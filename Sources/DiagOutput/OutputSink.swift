import Foundation

/// A buffered writer to a file descriptor: output of any size goes out in 64 KiB writes, so
/// memory stays flat however many records a query yields.
///
/// Not thread-safe: one command writes from one task.
public final class OutputSink {
    public let descriptor: Int32
    private var buffer: [UInt8] = []
    private let capacity: Int
    /// The first write error (EPIPE when the reader went away); later writes are dropped.
    public private(set) var failure: Int32?

    public init(descriptor: Int32 = 1, capacity: Int = 64 * 1024) {
        self.descriptor = descriptor
        self.capacity = capacity
        buffer.reserveCapacity(capacity)
    }

    public static func standardOutput() -> OutputSink { OutputSink(descriptor: 1) }

    public var isTerminal: Bool { isatty(descriptor) == 1 }

    public func write(_ bytes: [UInt8]) {
        if bytes.count >= capacity {
            // A block as large as the buffer goes out as it is, after what is buffered.
            flush()
            bytes.withUnsafeBytes { writeAll($0) }
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { flush() }
    }

    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { flush() }
    }

    /// Lets a formatter append straight into the buffer, avoiding a copy per record.
    public func withBuffer(_ body: (inout [UInt8]) -> Void) {
        body(&buffer)
        if buffer.count >= capacity { flush() }
    }

    public func flush() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { writeAll($0) }
    }

    /// Writes all of `raw` unless a write failed before (then nothing more is written).
    private func writeAll(_ raw: UnsafeRawBufferPointer) {
        guard failure == nil, !raw.isEmpty else { return }
        var offset = 0
        while offset < raw.count {
            let written = Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                failure = errno
                return
            }
            offset += written
        }
    }

    deinit { flush() }
}

@available(*, unavailable)
extension OutputSink: Sendable {}
