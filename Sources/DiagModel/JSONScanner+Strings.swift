extension JSONScanner {
    /// Reads a string whose opening quote is at the cursor. Plain ASCII runs are taken as they are;
    /// other bytes are checked as UTF-8 here, so that a bad byte is reported where it is.
    mutating func string() throws(JSONReaderError) -> String {
        let start = index + 1
        guard let range = try plainString() else { return try escapedString(from: start) }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The range of a string's content when it has no escapes, checked as `string()` checks it
    /// (so `RecordLineReader` lends it from the line instead of making a String); nil at the
    /// first backslash, with the cursor left inside the string.
    mutating func plainString() throws(JSONReaderError) -> Range<Int>? {
        index += 1
        let start = index
        skipPlainASCII()
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return start..<(index - 1)
            }
            if byte == UInt8(ascii: "\\") { return nil }
            if byte < 0x20 { throw controlCharacterError() }
            if byte < 0x80 { index += 1 } else { try skipUTF8Sequence() }
        }
        throw error("unterminated string (missing closing '\"')", at: start - 1)
    }

    /// Steps over bytes that need no attention (ASCII, not a quote, backslash or control
    /// character) eight at a time: most of a log message is such bytes.
    @inline(__always) private mutating func skipPlainASCII() {
        guard let base = bytes.baseAddress else { return }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let hasQuote = (quote &- ones) & ~quote
            let hasBackslash = (backslash &- ones) & ~backslash
            let hasControl = (word &- ones &* 0x20) & ~word
            guard (hasQuote | hasBackslash | hasControl | word) & highBits == 0 else { return }
            index += 8
        }
    }

    /// The slow path, once a backslash shows up: copies the string, resolving escapes.
    private mutating func escapedString(from start: Int) throws(JSONReaderError) -> String {
        var decoded = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<index]))
        decoded.reserveCapacity(decoded.count + 32)
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: decoded, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                try escape(into: &decoded)
            } else if byte < 0x20 {
                throw controlCharacterError()
            } else if byte < 0x80 {
                decoded.append(byte)
                index += 1
            } else {
                let sequenceStart = index
                try skipUTF8Sequence()
                decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[sequenceStart..<index]))
            }
        }
        throw error("unterminated string (missing closing '\"')", at: start - 1)
    }

    private mutating func escape(into decoded: inout [UInt8]) throws(JSONReaderError) {
        let escapeStart = index
        index += 1
        guard index < bytes.count else { throw error("unterminated escape sequence", at: escapeStart) }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""): decoded.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): decoded.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): decoded.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad(escapeStart: escapeStart)
            if (0xDC00...0xDFFF).contains(scalar) {
                throw error("lone low surrogate \\u\(hex(scalar)) (not preceded by a high surrogate)", at: escapeStart)
            }
            if (0xD800...0xDBFF).contains(scalar) {
                let lowStart = index
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("lone high surrogate \\u\(hex(scalar)) (not followed by a \\u low surrogate)", at: escapeStart)
                }
                index += 2
                let low = try hexQuad(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("high surrogate \\u\(hex(scalar)) followed by \\u\(hex(low)), not a low surrogate", at: escapeStart)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            appendUTF8(scalar, to: &decoded)
        default:
            throw error("invalid escape '\\\(describe(at: index - 1).trimmingQuotes)' (accepted: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u followed by 4 hex digits)", at: escapeStart)
        }
    }

    private mutating func hexQuad(escapeStart: Int) throws(JSONReaderError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw error("unterminated \\u escape (needs 4 hex digits)", at: escapeStart) }
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape: \(describe(at: index)) is not a hex digit", at: escapeStart)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private func hex(_ value: UInt32) -> String {
        String(value, radix: 16, uppercase: true).leftPadded(to: 4)
    }

    private func appendUTF8(_ scalar: UInt32, to decoded: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            decoded.append(UInt8(scalar))
        case 0x80..<0x800:
            decoded.append(UInt8(0xC0 | scalar >> 6))
            decoded.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            decoded.append(UInt8(0xE0 | scalar >> 12))
            decoded.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            decoded.append(UInt8(0x80 | scalar & 0x3F))
        default:
            decoded.append(UInt8(0xF0 | scalar >> 18))
            decoded.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            decoded.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            decoded.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    private func controlCharacterError() -> JSONReaderError {
        error("control character \(describeCurrent()) in a string (write it as an escape such as \\n or \\u00XX)", at: index)
    }

    /// Steps over one multi-byte UTF-8 sequence (Unicode 15, table 3-7), refusing anything else.
    mutating func skipUTF8Sequence() throws(JSONReaderError) {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw error("invalid UTF-8: \(describe(at: index)) cannot start a character", at: index)
        }
        for offset in 1..<length {
            let position = index + offset
            let range = offset == 1 ? secondRange : 0x80...0xBF
            guard position < bytes.count, range.contains(bytes[position]) else {
                throw error("invalid UTF-8: lead byte 0x\(String(lead, radix: 16, uppercase: true)) followed by \(describe(at: position))", at: index)
            }
        }
        index += length
    }
}

extension String {
    fileprivate var trimmingQuotes: String {
        hasPrefix("'") && hasSuffix("'") && count > 2 ? String(dropFirst().dropLast()) : self
    }
}
