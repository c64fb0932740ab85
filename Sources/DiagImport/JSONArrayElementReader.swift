/// Reads the elements of one top-level JSON array (`log show --style json`) one at a time from a
/// byte stream, so a file of any size is read in flat memory. It only finds where each element
/// ends (minding strings and nesting); the element's bytes are then parsed strictly on their own.
struct JSONArrayElementReader {
    let stream: ByteStream
    let maxElementLength: Int
    private var state = State.beforeArray
    private var line = 1
    private var pendingConsume = 0

    private enum State { case beforeArray, firstElement, beforeElement, afterElement, afterArray, stopped }

    enum Element {
        /// An element's bytes (valid until the next call) and the line it starts on.
        case bytes(UnsafeBufferPointer<UInt8>, line: Int)
        /// An element longer than the limit, skipped.
        case tooLong(line: Int, length: Int)
        /// The array's structure is broken here; reading stops after this.
        case malformed(line: Int, reason: String)
    }

    init(stream: ByteStream, maxElementLength: Int) {
        self.stream = stream
        self.maxElementLength = maxElementLength
    }

    mutating func next() throws(ImportError) -> Element? {
        stream.start += pendingConsume
        pendingConsume = 0
        while true {
            if state == .stopped { return nil }
            guard let byte = try nextSignificantByte() else {
                switch state {
                case .afterArray, .stopped: return nil
                case .beforeArray: state = .stopped; return nil
                default:
                    state = .stopped
                    return .malformed(line: line, reason: "the JSON array is not closed: the input ends before ']'")
                }
            }
            switch state {
            case .beforeArray:
                guard byte == UInt8(ascii: "[") else { return stop("expected '[' to open the JSON array but found \(describe(byte))") }
                stream.start += 1
                state = .firstElement
            case .firstElement where byte == UInt8(ascii: "]"):
                stream.start += 1
                state = .afterArray
            case .firstElement, .beforeElement:
                state = .afterElement
                return try element()
            case .afterElement:
                stream.start += 1
                if byte == UInt8(ascii: ",") {
                    state = .beforeElement
                } else if byte == UInt8(ascii: "]") {
                    state = .afterArray
                } else {
                    return stop("expected ',' or ']' after an array element but found \(describe(byte))")
                }
            case .afterArray:
                return stop("unexpected \(describe(byte)) after the closing ']' of the JSON array")
            case .stopped:
                return nil
            }
        }
    }

    private mutating func stop(_ reason: String) -> Element {
        state = .stopped
        return .malformed(line: line, reason: reason)
    }

    private func describe(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    /// Skips whitespace, counting lines; nil at the end of the input.
    private mutating func nextSignificantByte() throws(ImportError) -> UInt8? {
        while true {
            while stream.start < stream.end {
                let byte = stream[stream.start]
                switch byte {
                case 0x0A: line += 1; stream.start += 1
                case 0x20, 0x09, 0x0D: stream.start += 1
                default: return byte
                }
            }
            if try stream.fill(limit: ByteStream.blockSize).result == .endOfInput, stream.available.isEmpty { return nil }
        }
    }

    /// Finds the end of the element that starts at `stream.start`.
    private mutating func element() throws(ImportError) -> Element {
        let startLine = line
        let opening = stream[stream.start]
        let isContainer = opening == UInt8(ascii: "{") || opening == UInt8(ascii: "[")
        var offset = 0
        var depth = 0
        var inString = false
        var escaped = false
        var skipped = 0
        while true {
            let available = stream.available
            while offset < available.count {
                let byte = available[offset]
                if byte == 0x0A { line += 1 }
                if inString {
                    if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                } else if isContainer && (byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[")) {
                    depth += 1
                } else if isContainer && (byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")) {
                    depth -= 1
                    if depth == 0 { return finish(length: offset + 1, skipped: skipped, line: startLine) }
                } else if !isContainer && (byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte <= 0x20) {
                    if byte == 0x0A { line -= 1 }
                    return finish(length: offset, skipped: skipped, line: startLine)
                }
                offset += 1
            }
            if offset + skipped > maxElementLength {
                skipped += offset
                stream.discardAll()
                offset = 0
            }
            if try stream.fill(limit: maxElementLength + 1).result == .endOfInput && offset == stream.available.count {
                state = .stopped
                return .malformed(line: startLine, reason: "the array element starting here is cut short by the end of the input")
            }
        }
    }

    private mutating func finish(length: Int, skipped: Int, line startLine: Int) -> Element {
        guard skipped == 0, length <= maxElementLength else {
            stream.start += length
            return .tooLong(line: startLine, length: skipped + length)
        }
        pendingConsume = length
        return .bytes(UnsafeBufferPointer(rebasing: stream.available[0..<length]), line: startLine)
    }
}
