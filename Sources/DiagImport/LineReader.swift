import Foundation

/// Splits a byte stream into lines on `\n` (a `\r` before it is dropped), in flat memory.
struct LineReader {
    let stream: ByteStream
    let maxLineLength: Int
    private(set) var lineNumber = 0

    init(stream: ByteStream, maxLineLength: Int) {
        self.stream = stream
        self.maxLineLength = maxLineLength
    }

    enum Line {
        case text(UnsafeBufferPointer<UInt8>)
        /// A line longer than `maxLineLength`, skipped: its length in bytes.
        case tooLong(Int)
    }

    /// The next line with its 1-based number, or nil at the end of the input. The bytes are
    /// valid until the next call.
    mutating func next() throws(ImportError) -> (number: Int, line: Line)? {
        var scanned = 0
        while true {
            let available = stream.available
            if let newline = firstNewline(in: available, from: scanned) {
                lineNumber += 1
                stream.start += newline + 1
                guard newline <= maxLineLength else { return (lineNumber, .tooLong(newline)) }
                return (lineNumber, .text(trimmingCarriageReturn(UnsafeBufferPointer(rebasing: available[0..<newline]))))
            }
            scanned = available.count
            if scanned > maxLineLength {
                lineNumber += 1
                return (lineNumber, .tooLong(try skipRestOfLine()))
            }
            switch try stream.fill(limit: maxLineLength + 1).result {
            case .read: continue
            case .full:
                lineNumber += 1
                return (lineNumber, .tooLong(try skipRestOfLine()))
            case .endOfInput:
                let rest = stream.available
                guard !rest.isEmpty else { return nil }
                lineNumber += 1
                stream.start += rest.count
                guard rest.count <= maxLineLength else { return (lineNumber, .tooLong(rest.count)) }
                return (lineNumber, .text(trimmingCarriageReturn(rest)))
            }
        }
    }

    /// Throws away bytes up to and including the next newline, returning how many there were.
    private func skipRestOfLine() throws(ImportError) -> Int {
        var skipped = 0
        while true {
            let available = stream.available
            if let newline = firstNewline(in: available, from: 0) {
                stream.start += newline + 1
                return skipped + newline
            }
            skipped += available.count
            stream.discardAll()
            if try stream.fill(limit: maxLineLength + 1).result == .endOfInput, stream.available.isEmpty {
                return skipped
            }
        }
    }

    private func firstNewline(in bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int? {
        guard offset < bytes.count, let base = bytes.baseAddress,
              let found = memchr(base + offset, 0x0A, bytes.count - offset)
        else { return nil }
        return UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
    }

    private func trimmingCarriageReturn(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard let last = line.last, last == 0x0D else { return line }
        return UnsafeBufferPointer(rebasing: line[0..<(line.count - 1)])
    }
}
