import DiagModel
import Foundation

/// Writes records as NDJSON (the bytes of `LogRecord.writeJSON`, one record per line) to a file or
/// standard output through a 1 MiB buffer and write(2): `diag generate`'s output path.
///
/// Call `close()` (or `flush()` for standard output) to learn of write errors; a writer released
/// without it still flushes, but can only drop an error then.
public final class NDJSONWriter {
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    public let name: String
    private var buffer = NDJSONEncodingBuffer(capacity: NDJSONWriter.bufferSize + 64 * 1024)
    private var closed = false

    static let bufferSize = 1 << 20

    /// Creates or truncates the file at `path` (mode 0644).
    public init(path: String) throws(NDJSONWriterError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw NDJSONWriterError(name: path, reason: String(cString: strerror(errno))) }
        self.descriptor = descriptor
        ownsDescriptor = true
        name = path
    }

    /// Writes to standard output, leaving it open.
    public init(standardOutput: Void = ()) {
        descriptor = STDOUT_FILENO
        ownsDescriptor = false
        name = "<stdout>"
    }

    public func write(_ record: LogRecord) throws(NDJSONWriterError) {
        buffer.append(record)
        if buffer.count >= Self.bufferSize { try flush() }
    }

    public func flush() throws(NDJSONWriterError) {
        var written = 0
        defer { buffer.removeAll() }
        while written < buffer.count {
            let count = Foundation.write(descriptor, buffer.base + written, buffer.count - written)
            if count < 0 {
                if errno == EINTR { continue }
                throw NDJSONWriterError(name: name, reason: String(cString: strerror(errno)))
            }
            written += count
        }
    }

    /// Flushes and closes the file (standard output is flushed and left open).
    public func close() throws(NDJSONWriterError) {
        guard !closed else { return }
        closed = true
        try flush()
        if ownsDescriptor, Foundation.close(descriptor) != 0 {
            throw NDJSONWriterError(name: name, reason: String(cString: strerror(errno)))
        }
    }

    deinit {
        try? close()
    }
}

// Declared so: a writer owns a descriptor and a buffer it mutates on every write.
@available(*, unavailable)
extension NDJSONWriter: Sendable {}

/// A write that failed: the file and the system's reason.
public struct NDJSONWriterError: Error, Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var reason: String

    public init(name: String, reason: String) {
        self.name = name
        self.reason = reason
    }

    public var description: String { "cannot write \(name): \(reason)" }
}

extension RecordGenerator {
    /// Generates `options.count` records into the writer (without closing it); returns the count.
    @discardableResult
    public static func write(_ options: GeneratorOptions, to output: NDJSONWriter) throws(NDJSONWriterError) -> Int {
        var generator = RecordGenerator(options)
        var count = 0
        while let record = generator.next() {
            try output.write(record)
            count += 1
        }
        try output.flush()
        return count
    }
}
