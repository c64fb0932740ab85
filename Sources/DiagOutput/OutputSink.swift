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

    /// Standard output; when it is a pipe, the pipe's buffer is enlarged (`widenPipe`).
    public static func standardOutput() -> OutputSink {
        widenPipe(1)
        return OutputSink(descriptor: 1)
    }

    /// Asks Linux for a 1 MiB pipe buffer when `descriptor` is a pipe (the default is 64 KiB):
    /// a query writes megabytes in 64 KiB writes, and with the default every write waits for the
    /// reader to run and empty the pipe, a pair of context switches per 64 KiB on a busy machine.
    /// Refusals (an unprivileged process above `/proc/sys/fs/pipe-max-size` or its per-user
    /// quota) keep the pipe as it is.
    public static func widenPipe(_ descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFIFO else { return }
        let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ (<linux/fcntl.h>), hidden from Swift behind _GNU_SOURCE
        _ = fcntl(descriptor, setPipeSize, Int32(1 << 20))
    }

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
