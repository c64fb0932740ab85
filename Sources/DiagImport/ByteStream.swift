import Foundation

/// Reads a file descriptor with read(2) in big blocks into one reusable buffer, so that a file of
/// any size is read in flat memory. The bytes not consumed yet are `buffer[start..<end]`.
final class ByteStream {
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    let name: String
    private(set) var buffer: UnsafeMutableRawBufferPointer
    var start = 0
    private(set) var end = 0
    private(set) var atEndOfInput = false

    static let blockSize = 1 << 20

    /// Opens a file for reading.
    init(path: String) throws(ImportError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ImportError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            throw ImportError.unreadable(path: path, reason: "it is a directory")
        }
        self.descriptor = descriptor
        ownsDescriptor = true
        name = path
        buffer = .allocate(byteCount: Self.blockSize, alignment: 8)
    }

    /// Reads a descriptor someone else owns (standard input), leaving it open.
    init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        ownsDescriptor = false
        self.name = name
        buffer = .allocate(byteCount: Self.blockSize, alignment: 8)
    }

    /// Serves bytes already in memory.
    init(bytes: [UInt8], name: String) {
        descriptor = -1
        ownsDescriptor = false
        self.name = name
        buffer = .allocate(byteCount: max(bytes.count, 1), alignment: 8)
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
        end = bytes.count
        atEndOfInput = true
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
        buffer.deallocate()
    }

    var available: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + start, count: end - start)
    }

    subscript(position: Int) -> UInt8 { buffer[position] }

    enum FillResult { case read, endOfInput, full }

    /// Reads more bytes after `end`: first moving the unconsumed bytes to the front, then growing
    /// the buffer while the unconsumed bytes fill it, up to `limit` bytes. Positions shift by the
    /// returned amount (subtract it from any index kept across the call).
    func fill(limit: Int) throws(ImportError) -> (result: FillResult, shift: Int) {
        if atEndOfInput { return (.endOfInput, 0) }
        var shift = 0
        if end == buffer.count {
            if start > 0 {
                shift = start
                if end > start {
                    UnsafeMutableRawBufferPointer(rebasing: buffer[0..<(end - start)])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[start..<end]))
                }
                end -= start
                start = 0
            } else if buffer.count >= limit {
                return (.full, 0)
            } else {
                let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: min(buffer.count * 2, max(limit, Self.blockSize)), alignment: 8)
                grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[0..<end]))
                buffer.deallocate()
                buffer = grown
            }
        }
        while true {
            let count = read(descriptor, buffer.baseAddress! + end, buffer.count - end)
            if count > 0 {
                end += count
                return (.read, shift)
            }
            if count == 0 {
                atEndOfInput = true
                return (.endOfInput, shift)
            }
            if errno != EINTR { throw ImportError.unreadable(path: name, reason: String(cString: strerror(errno))) }
        }
    }

    /// Drops every unconsumed byte: for skipping what is too long to hold.
    func discardAll() {
        start = end
    }
}
