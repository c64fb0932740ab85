/// String and number literals (PREDICATES.md §2.5, §2.6).
extension PredicateLexer {
    /// Reads a quoted literal starting at `position` (on the quote) and applies the escapes.
    mutating func scanString(quote: UInt8) throws(PredicateError) -> String {
        let start = position
        var output: [UInt8] = []
        var index = position + 1
        func unterminated() -> PredicateError {
            let column = error(.invalidString, "", at: start).column
            let quoteName = quote == UInt8(ascii: "\"") ? "a \"" : "a '"
            return error(.invalidString, "unterminated string starting at column \(column): close it with \(quoteName)", at: start)
        }
        while true {
            guard index < bytes.count else { throw unterminated() }
            let byte = bytes[index]
            if byte == quote {
                position = index + 1
                return String(decoding: output, as: UTF8.self)
            }
            guard byte == UInt8(ascii: "\\") else {
                output.append(byte)
                index += 1
                continue
            }
            guard index + 1 < bytes.count else { throw unterminated() }
            let escaped = bytes[index + 1]
            switch escaped {
            case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"):
                output.append(escaped); index += 2
            case UInt8(ascii: "n"): output.append(0x0A); index += 2
            case UInt8(ascii: "t"): output.append(0x09); index += 2
            case UInt8(ascii: "r"): output.append(0x0D); index += 2
            case UInt8(ascii: "x"), UInt8(ascii: "X"):
                let value = try hexDigits(at: index + 2, count: 2, escapeStart: index)
                append(scalar: UnicodeScalar(UInt8(value)), to: &output)
                index += 4
            case UInt8(ascii: "u"), UInt8(ascii: "U"):
                index = try scanUnicodeEscape(at: index, into: &output)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                if let value = octalValue(at: index + 1), value <= 0o377 {
                    append(scalar: UnicodeScalar(UInt8(value)), to: &output)
                    index += 4
                } else {
                    // Not an octal escape: kept verbatim, so regex back-references (`\1`) survive.
                    output.append(contentsOf: [UInt8(ascii: "\\"), escaped]); index += 2
                }
            default:
                // Any other escape is kept as written (`\d` reaches the regex engine).
                output.append(UInt8(ascii: "\\"))
                index += 1
            }
        }
    }

    private func append(scalar: UnicodeScalar, to output: inout [UInt8]) {
        output.append(contentsOf: String(Character(scalar)).utf8)
    }

    private func octalValue(at offset: Int) -> UInt32? {
        guard offset + 3 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[offset..<offset + 3] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "7") else { return nil }
            value = value * 8 + UInt32(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private func hexDigits(at offset: Int, count: Int, escapeStart: Int) throws(PredicateError) -> UInt32 {
        var value: UInt32 = 0
        for index in offset..<offset + count {
            guard index < bytes.count, let digit = Self.hexValue(bytes[index]) else {
                let letter = UnicodeScalar(bytes[escapeStart + 1])
                let shown = String(decoding: bytes[escapeStart..<min(bytes.count, offset + count)], as: UTF8.self)
                throw error(.invalidString, "malformed escape '\(shown)': \\\(letter) needs exactly \(count) hex digits", at: escapeStart)
            }
            value = value * 16 + digit
        }
        return value
    }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// `\uHHHH`, with a high surrogate that must be followed by `\uHHHH` of a low one.
    private func scanUnicodeEscape(at index: Int, into output: inout [UInt8]) throws(PredicateError) -> Int {
        let unit = try hexDigits(at: index + 2, count: 4, escapeStart: index)
        switch unit {
        case 0xD800...0xDBFF:
            guard index + 7 < bytes.count, bytes[index + 6] == UInt8(ascii: "\\"),
                  bytes[index + 7] | 0x20 == UInt8(ascii: "u")
            else {
                throw error(.invalidString, "lone high surrogate in '\\u\(String(unit, radix: 16, uppercase: true))': it must be followed by \\u and a low surrogate (DC00–DFFF)", at: index)
            }
            let low = try hexDigits(at: index + 8, count: 4, escapeStart: index + 6)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw error(.invalidString, "'\\u\(String(low, radix: 16, uppercase: true))' after a high surrogate is not a low surrogate (DC00–DFFF)", at: index + 6)
            }
            let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            append(scalar: UnicodeScalar(value)!, to: &output)
            return index + 12
        case 0xDC00...0xDFFF:
            throw error(.invalidString, "lone low surrogate '\\u\(String(unit, radix: 16, uppercase: true))': a low surrogate must follow a high one (D800–DBFF)", at: index)
        default:
            append(scalar: UnicodeScalar(unit)!, to: &output)
            return index + 6
        }
    }

    /// A number at `position` (after any `-`, whose offset is `start`).
    mutating func scanNumber(negative: Bool, start: Int? = nil) throws(PredicateError) -> Token {
        let start = start ?? position
        let digitsStart = position
        if bytes[position] == UInt8(ascii: "0"), position + 1 < bytes.count,
           let radix = Self.radix(prefix: bytes[position + 1])
        {
            position += 2
            let runStart = position
            while position < bytes.count, Self.isIdentifierByte(bytes[position]) { position += 1 }
            let run = bytes[runStart..<position]
            let name = radix == 16 ? "hexadecimal" : radix == 8 ? "octal" : "binary"
            let prefix = String(decoding: bytes[digitsStart..<runStart], as: UTF8.self)
            guard !run.isEmpty else {
                throw error(.invalidNumber, "'\(prefix)' needs \(name) digits after it", at: start)
            }
            var magnitude: UInt64 = 0
            for (offset, byte) in zip(runStart..., run) {
                guard let digit = Self.hexValue(byte), digit < radix else {
                    throw error(.invalidNumber, "invalid digit '\(UnicodeScalar(byte))' in \(name) number", at: offset)
                }
                let (shifted, overflow) = magnitude.multipliedReportingOverflow(by: UInt64(radix))
                guard !overflow, shifted <= UInt64.max - UInt64(digit) else {
                    throw error(.invalidNumber, "number out of the 64-bit range", at: start)
                }
                magnitude = shifted + UInt64(digit)
            }
            try rejectTrailing(after: start)
            return Token(kind: .integer(try signed(magnitude, negative: negative, start: start)), start: start, end: position)
        }
        var isFloat = false
        while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isFloat = true
            position += 1
            while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            isFloat = true
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            let exponentStart = position
            while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
            guard position > exponentStart else {
                throw error(.invalidNumber, "malformed number '\(String(decoding: bytes[start..<position], as: UTF8.self))': an exponent needs digits", at: start)
            }
        }
        try rejectTrailing(after: start)
        let text = String(decoding: bytes[digitsStart..<position], as: UTF8.self)
        if isFloat {
            guard let value = Double(text), value.isFinite else {
                throw error(.invalidNumber, "number '\(text)' is out of range", at: start)
            }
            return Token(kind: .double(negative ? -value : value), start: start, end: position)
        }
        guard let magnitude = UInt64(text) else {
            throw error(.invalidNumber, "number out of the 64-bit range", at: start)
        }
        return Token(kind: .integer(try signed(magnitude, negative: negative, start: start)), start: start, end: position)
    }

    private static func radix(prefix: UInt8) -> UInt32? {
        switch prefix | 0x20 {
        case UInt8(ascii: "x"): 16
        case UInt8(ascii: "o"): 8
        case UInt8(ascii: "b"): 2
        default: nil
        }
    }

    /// A letter, digit, `_` or `.` right after a number cannot belong to it (`12abc`, `1.2.3`).
    private func rejectTrailing(after start: Int) throws(PredicateError) {
        guard position < bytes.count, Self.isIdentifierByte(bytes[position]) || bytes[position] == UInt8(ascii: ".") else { return }
        var end = position
        while end < bytes.count, Self.isIdentifierByte(bytes[end]) || bytes[end] == UInt8(ascii: ".") { end += 1 }
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        throw error(.invalidNumber, "malformed number '\(text)': a number cannot be followed by '\(UnicodeScalar(bytes[position]))'", at: start)
    }

    private func signed(_ magnitude: UInt64, negative: Bool, start: Int) throws(PredicateError) -> Int64 {
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else {
                throw error(.invalidNumber, "number out of the 64-bit range", at: start)
            }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else {
            throw error(.invalidNumber, "number out of the 64-bit range", at: start)
        }
        return Int64(magnitude)
    }
}
