import DiagProtocol
import Glibc

/// Splits a byte stream into newline-terminated lines of at most `maximumLength` bytes.
///
/// Lines inside one read are handed out in place, without copying; only a line split across
/// reads is gathered in `pending`. A line over the limit is skipped up to its newline and
/// reported once, so the connection goes on with the next line.
struct LineFramer {
    enum Event {
        case line(number: Int, bytes: UnsafeRawBufferPointer)
        case tooLong(number: Int, length: Int)
    }

    static let defaultMaximumLength = LineBounds.request

    let maximumLength: Int
    private var pending: [UInt8] = []
    private var discardedLength = 0
    private var discarding = false
    private(set) var lineNumber = 0

    init(maximumLength: Int = LineFramer.defaultMaximumLength) {
        self.maximumLength = maximumLength
    }

    /// Whether a partial line is waiting for its end.
    var hasPartialLine: Bool { !pending.isEmpty || discarding }

    /// Hands out each complete line of `chunk`, then keeps its unfinished end for the next call.
    /// When `handle` returns false (a line that changes what the connection does next), stops
    /// right after that line and returns how many bytes of `chunk` were used: the caller keeps
    /// the rest. Otherwise returns `chunk.count`.
    @discardableResult
    mutating func feed(_ chunk: UnsafeRawBufferPointer, _ handle: (Event) -> Bool) -> Int {
        guard let base = chunk.baseAddress, chunk.count > 0 else { return 0 }
        var start = 0
        while start < chunk.count {
            let remaining = chunk.count - start
            guard let found = memchr(base + start, Int32(UInt8(ascii: "\n")), remaining) else {
                carry(UnsafeRawBufferPointer(start: base + start, count: remaining))
                return chunk.count
            }
            let end = base.distance(to: UnsafeRawPointer(found))
            let piece = UnsafeRawBufferPointer(start: base + start, count: end - start)
            start = end + 1
            lineNumber += 1
            var goOn = true
            if discarding {
                goOn = handle(.tooLong(number: lineNumber, length: discardedLength + piece.count))
                discarding = false
                discardedLength = 0
            } else if pending.isEmpty {
                goOn = emit(piece, handle)
            } else if pending.count + piece.count > maximumLength {
                goOn = handle(.tooLong(number: lineNumber, length: pending.count + piece.count))
                pending.removeAll(keepingCapacity: false)
            } else {
                pending.append(contentsOf: piece)
                goOn = pending.withUnsafeBytes { emit($0, handle) }
                pending.removeAll(keepingCapacity: pending.capacity <= 64 << 10)
            }
            if !goOn { return start }
        }
        return chunk.count
    }

    /// At the end of the stream: a last line without its newline still counts.
    mutating func finish(_ handle: (Event) -> Bool) {
        if discarding {
            lineNumber += 1
            _ = handle(.tooLong(number: lineNumber, length: discardedLength))
        } else if !pending.isEmpty {
            lineNumber += 1
            _ = pending.withUnsafeBytes { emit($0, handle) }
        }
        pending = []
        discarding = false
        discardedLength = 0
    }

    private func emit(_ line: UnsafeRawBufferPointer, _ handle: (Event) -> Bool) -> Bool {
        var length = line.count
        if length > 0, line[length - 1] == UInt8(ascii: "\r") { length -= 1 }
        if length > maximumLength {
            return handle(.tooLong(number: lineNumber, length: length))
        }
        return handle(.line(number: lineNumber, bytes: UnsafeRawBufferPointer(rebasing: line[0..<length])))
    }

    private mutating func carry(_ piece: UnsafeRawBufferPointer) {
        if discarding {
            discardedLength += piece.count
        } else if pending.count + piece.count > maximumLength {
            discarding = true
            discardedLength = pending.count + piece.count
            pending.removeAll(keepingCapacity: false)
        } else {
            pending.append(contentsOf: piece)
        }
    }
}
