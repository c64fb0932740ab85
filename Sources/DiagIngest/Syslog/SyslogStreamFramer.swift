/// Splits a syslog TCP stream into messages (RFC 6587): octet counting (`MSG-LEN SP MSG`, §3.4.1)
/// when a frame starts with a digit, else non-transparent framing ending at LF (§3.4.2), as
/// rsyslog's `imtcp` tells them apart. A frame over `maximumLength` is an error that ends the
/// connection, since the stream cannot be resynchronised after it.
struct SyslogStreamFramer {
    let maximumLength: Int
    private var pending: [UInt8] = []

    init(maximumLength: Int = 64 << 10) { self.maximumLength = maximumLength }

    enum Event {
        case message(ArraySlice<UInt8>)
        case error(String)
    }

    /// Whether a partial frame is waiting for more bytes.
    var hasPartialFrame: Bool { !pending.isEmpty }

    /// Feeds bytes; calls `body` with each complete message. Returns an error that ends the stream.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, _ body: (ArraySlice<UInt8>) -> Void) -> String? {
        pending.append(contentsOf: bytes)
        var start = 0
        defer { pending.removeFirst(start) }
        while start < pending.count {
            let first = pending[start]
            if first == 0x0A || first == 0x0D || first == 0 { start += 1; continue }
            if first &- 0x30 < 10 {
                var index = start
                var length = 0
                while index < pending.count, pending[index] &- 0x30 < 10 {
                    length = length * 10 + Int(pending[index] - 0x30)
                    index += 1
                    if length > maximumLength {
                        return "octet-counted frame announces more than \(maximumLength) bytes (64 KiB)"
                    }
                }
                guard index < pending.count else { return nil }
                guard pending[index] == 0x20 else {
                    return "octet-counted frame: expected a space after MSG-LEN \(length), found byte \(pending[index])"
                }
                guard pending.count - (index + 1) >= length else { return nil }
                body(pending[(index + 1)..<(index + 1 + length)])
                start = index + 1 + length
            } else {
                guard let newline = pending[start...].firstIndex(of: 0x0A) else {
                    if pending.count - start > maximumLength {
                        return "LF-framed message longer than \(maximumLength) bytes (64 KiB) without a line feed"
                    }
                    return nil
                }
                if newline - start > maximumLength { return "LF-framed message longer than \(maximumLength) bytes (64 KiB)" }
                body(pending[start..<newline])
                start = newline + 1
            }
        }
        return nil
    }
}
