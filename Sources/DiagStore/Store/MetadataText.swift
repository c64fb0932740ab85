import DiagModel

/// The `metadata` column: a JSON object as text, written with DiagModel's `JSONWriter` and read
/// back by a small scanner of exactly what that writer (or `sqlite3`'s JSON functions) produce.
enum MetadataText {
    static func encode(_ metadata: [String: JSONValue]) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 128)
        writer.append(.object(metadata))
        return writer.bytes
    }

    struct SyntaxError: Error, CustomStringConvertible {
        let offset: Int
        let expected: String
        var description: String { "metadata is not a JSON object: expected \(expected) at byte \(offset)" }
    }

    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws -> [String: JSONValue] {
        var scanner = Scanner(bytes: bytes)
        scanner.skipSpace()
        guard case .object(let object) = try scanner.value(depth: 0) else {
            throw SyntaxError(offset: 0, expected: "an object")
        }
        scanner.skipSpace()
        guard scanner.index == bytes.count else { throw SyntaxError(offset: scanner.index, expected: "the end of the text") }
        return object
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func expect(_ byte: UInt8, _ what: String) throws {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { throw SyntaxError(offset: index, expected: what) }
            index += 1
        }

        mutating func literal(_ word: String, _ value: JSONValue) throws -> JSONValue {
            for byte in word.utf8 {
                guard index < bytes.count, bytes[index] == byte else { throw SyntaxError(offset: index, expected: word) }
                index += 1
            }
            return value
        }

        mutating func value(depth: Int) throws -> JSONValue {
            skipSpace()
            guard depth < 512 else { throw SyntaxError(offset: index, expected: "less nesting") }
            guard index < bytes.count else { throw SyntaxError(offset: index, expected: "a value") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [String: JSONValue] = [:]
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                repeat {
                    skipSpace()
                    let key = try string()
                    try expect(UInt8(ascii: ":"), "':'")
                    members[key] = try value(depth: depth + 1)
                    skipSpace()
                } while try separator(closing: UInt8(ascii: "}"))
                return .object(members)
            case UInt8(ascii: "["):
                index += 1
                var elements: [JSONValue] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
                repeat {
                    elements.append(try value(depth: depth + 1))
                    skipSpace()
                } while try separator(closing: UInt8(ascii: "]"))
                return .array(elements)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default: return try number()
            }
        }

        /// After a member or element: true for `,`, false for the closing bracket.
        mutating func separator(closing: UInt8) throws -> Bool {
            guard index < bytes.count else { throw SyntaxError(offset: index, expected: "',' or a closing bracket") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; return true }
            if bytes[index] == closing { index += 1; return false }
            throw SyntaxError(offset: index, expected: "',' or a closing bracket")
        }

        mutating func number() throws -> JSONValue {
            let start = index
            var isInteger = true
            while index < bytes.count {
                let byte = bytes[index]
                if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") || byte == UInt8(ascii: "-") {
                } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+") {
                    isInteger = false
                } else {
                    break
                }
                index += 1
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            if isInteger, let value = Int64(text) { return .int(value) }
            guard !text.isEmpty, let value = Double(text) else { throw SyntaxError(offset: start, expected: "a value") }
            return .double(value)
        }

        mutating func string() throws -> String {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw SyntaxError(offset: index, expected: "'\"'") }
            index += 1
            var utf8: [UInt8] = []
            var pendingHighSurrogate: UInt32?
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "\"") { return String(decoding: utf8, as: UTF8.self) }
                guard byte == UInt8(ascii: "\\") else { utf8.append(byte); continue }
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "u"):
                    guard index + 4 <= bytes.count,
                          let unit = UInt32(String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<index + 4]), as: UTF8.self), radix: 16)
                    else { throw SyntaxError(offset: index, expected: "4 hex digits") }
                    index += 4
                    var scalarValue = unit
                    if (0xD800..<0xDC00).contains(unit) { pendingHighSurrogate = unit; continue }
                    if (0xDC00..<0xE000).contains(unit), let high = pendingHighSurrogate {
                        scalarValue = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)
                    }
                    pendingHighSurrogate = nil
                    utf8.append(contentsOf: String(Unicode.Scalar(scalarValue).map(Character.init) ?? "\u{FFFD}").utf8)
                default: utf8.append(escape)
                }
            }
            throw SyntaxError(offset: index, expected: "a closing '\"'")
        }
    }
}
