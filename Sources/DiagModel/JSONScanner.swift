/// The cursor behind `JSONReader`: a recursive-descent scanner over a byte buffer that it never copies.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0
    var depth = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    @inline(__always) mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    mutating func value() throws(JSONReaderError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input where a value was expected", at: index) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object(try object())
        case UInt8(ascii: "["): return .array(try array())
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("unexpected \(describeCurrent()) where a value was expected", at: index)
        }
    }

    /// Steps into the object or array whose bracket is at the cursor, within `maxDepth`.
    mutating func enter() throws(JSONReaderError) {
        depth += 1
        guard depth <= maxDepth else {
            throw error("arrays and objects nested deeper than \(maxDepth) levels", at: index)
        }
        index += 1
    }

    mutating func object() throws(JSONReaderError) -> [String: JSONValue] {
        try enter()
        var members = [String: JSONValue](minimumCapacity: 8)
        if leavesEmpty(closing: UInt8(ascii: "}")) { return members }
        repeat {
            skipWhitespace()
            members[try memberKey()] = try value()
        } while try separator(closing: UInt8(ascii: "}"))
        return members
    }

    /// Right after `enter`: past the closing bracket of an empty object or array (true, the
    /// container left); false, nothing read but whitespace, when something is in it.
    @inline(__always) mutating func leavesEmpty(closing: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == closing else { return false }
        index += 1
        depth -= 1
        return true
    }

    /// After an object's member or an array's element: past the `,` before the next one (true)
    /// or past the closing bracket (false, the container left); anything else is an error.
    @inline(__always) mutating func separator(closing: UInt8) throws(JSONReaderError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else {
            throw error("unexpected end of input inside \(Self.container(closing)), expected ',' or '\(Character(Unicode.Scalar(closing)))'", at: index)
        }
        switch bytes[index] {
        case UInt8(ascii: ","): index += 1; return true
        case closing: index += 1; depth -= 1; return false
        default:
            throw error("expected ',' or '\(Character(Unicode.Scalar(closing)))' in \(Self.container(closing)) but found \(describeCurrent())", at: index)
        }
    }

    private static func container(_ closing: UInt8) -> String {
        closing == UInt8(ascii: "}") ? "an object" : "an array"
    }

    /// An object member's key at the cursor and the `:` after it, the cursor left on its value.
    mutating func memberKey() throws(JSONReaderError) -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw error("expected a string key ('\"') in an object but found \(describeCurrent())", at: index)
        }
        let key = try string()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            throw error("expected ':' after the object key \"\(key.prefix(40))\" but found \(describeCurrent())", at: index)
        }
        index += 1
        skipWhitespace()
        return key
    }

    private mutating func array() throws(JSONReaderError) -> [JSONValue] {
        try enter()
        var elements: [JSONValue] = []
        if leavesEmpty(closing: UInt8(ascii: "]")) { return elements }
        repeat {
            skipWhitespace()
            elements.append(try value())
        } while try separator(closing: UInt8(ascii: "]"))
        return elements
    }

    mutating func literal(_ word: StaticString) throws(JSONReaderError) {
        let start = index
        var matched = true
        word.withUTF8Buffer { expected in
            for byte in expected {
                guard index < bytes.count, bytes[index] == byte else { matched = false; return }
                index += 1
            }
        }
        guard matched else { throw error("invalid literal (expected \(word))", at: start) }
    }

    mutating func number() throws(JSONReaderError) -> JSONValue {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw error("expected a digit in a number but found \(describeCurrent())", at: index)
        }
        var magnitude: UInt64 = 0
        var overflow = false
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw error("number with a leading zero", at: start)
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) {
                let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(UInt64(bytes[index] &- UInt8(ascii: "0")))
                overflow = overflow || o1 || o2
                magnitude = sum
                index += 1
            }
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            try digits(after: "'.'")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            try digits(after: "the exponent")
        }
        if isInteger && !overflow {
            if !negative, magnitude <= UInt64(Int64.max) { return .int(Int64(magnitude)) }
            if negative, magnitude <= UInt64(Int64.max) + 1 { return .int(Int64(truncatingIfNeeded: 0 &- magnitude)) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let double = Double(text), double.isFinite else {
            throw error("number \(text.prefix(40)) is out of the range of a double", at: start)
        }
        return .double(double)
    }

    private mutating func digits(after what: String) throws(JSONReaderError) {
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw error("expected a digit after \(what) but found \(describeCurrent())", at: index)
        }
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    @inline(__always) private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    /// The byte at the cursor, said in words for an error message.
    func describeCurrent() -> String {
        describe(at: index)
    }

    func describe(at position: Int) -> String {
        guard position < bytes.count else { return "end of input" }
        let byte = bytes[position]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
    }

    /// An error at a byte offset, with the line and column worked out only now that they are needed.
    func error(_ reason: String, at offset: Int) -> JSONReaderError {
        var line = 1
        var lineStart = 0
        for position in 0..<min(offset, bytes.count) where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        return JSONReaderError(reason: reason, offset: offset, line: line, column: offset - lineStart + 1)
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
