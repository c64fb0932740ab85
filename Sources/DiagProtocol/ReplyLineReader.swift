import Glibc

/// The lines diagd writes on a connected socket, read in blocks and cut at newlines, each at
/// most `LineBounds.reply` bytes: a daemon (or whatever listens on the socket)
/// that sends an endless line is refused instead of filling the client's memory.
public struct ReplyLineReader {
    public let descriptor: Int32
    private let maximumLength: Int
    private var pending: [UInt8] = []
    /// Where the unread part of `pending` starts.
    private var readOffset = 0
    private var block: [UInt8]

    public init(descriptor: Int32, maximumLength: Int = LineBounds.reply, blockSize: Int = 64 << 10) {
        self.descriptor = descriptor
        self.maximumLength = maximumLength
        block = [UInt8](repeating: 0, count: max(1, blockSize))
    }

    /// The next line without its newline; nil when the peer closed the connection after a whole
    /// line. Throws when a read fails (a receive timeout is one), when the connection ends inside
    /// a line, or when a line is longer than the bound.
    public mutating func next() throws(ProtocolError) -> [UInt8]? {
        var searched = readOffset
        while true {
            if let newline = pending[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                guard newline - readOffset <= maximumLength else { throw tooLong(newline - readOffset) }
                let line = Array(pending[readOffset..<newline])
                readOffset = newline + 1
                return line
            }
            guard pending.count - readOffset <= maximumLength else { throw tooLong(pending.count - readOffset) }
            pending.removeFirst(readOffset)
            readOffset = 0
            searched = pending.count
            let count = block.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw ProtocolError("reading the reply failed: \(String(cString: strerror(errno)))") }
            if count == 0 {
                guard pending.isEmpty else { throw ProtocolError("the connection ended inside a reply line (\(pending.count) bytes without a newline)") }
                return nil
            }
            pending.append(contentsOf: block[0..<count])
        }
    }

    private func tooLong(_ length: Int) -> ProtocolError {
        ProtocolError("a reply line of at least \(length) bytes; a line may be at most \(maximumLength) bytes")
    }
}
