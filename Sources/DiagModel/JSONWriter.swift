/// Appends JSON text to a byte buffer without Foundation's encoders, for the hot output paths.
public struct JSONWriter: Sendable {
    public var bytes: [UInt8] = []

    public init(reservingCapacity capacity: Int = 512) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func append(raw: StaticString) {
        raw.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func append(_ value: Int64) {
        bytes.append(contentsOf: String(value).utf8)
    }

    public mutating func append(_ value: Double) {
        if value.isFinite {
            if value.rounded() == value, abs(value) < 1e15 {
                bytes.append(contentsOf: String(Int64(value)).utf8)
                bytes.append(contentsOf: ".0".utf8)
            } else {
                bytes.append(contentsOf: "\(value)".utf8)
            }
        } else {
            append(raw: "null")
        }
    }

    /// A quoted, escaped JSON string. Control characters become `\u00XX`; `/` is left alone.
    public mutating func append(string: String) {
        var string = string
        string.withUTF8 { append(stringUTF8: $0) }
    }

    /// The same for well-formed UTF-8 bytes (`UTF8Validation`), as `append(string:)` writes the
    /// `String` they make.
    public mutating func append(stringUTF8 utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            // Printable ASCII but `"` and `\` (most of any text) passes with one range check.
            if byte &- 0x20 < 0x5F, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            defer { index += 1 }
            // DEL and C1 controls (UTF-8 0xC2 0x80…0x9F) as `\u00XX` too, as ByteWriter writes them.
            let c1 = byte == 0xC2 && index + 1 < utf8.count && (0x80...0x9F).contains(utf8[index + 1])
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F || c1 else { continue }
            if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            runStart = index + 1
            bytes.append(UInt8(ascii: "\\"))
            if c1 {
                index += 1
                runStart += 1
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: "u00".utf8)
                bytes.append(hex[Int(utf8[index] >> 4)])
                bytes.append(hex[Int(utf8[index] & 0xF)])
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            default:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: "u00".utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            }
        }
        if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Any JSON value; object keys are written sorted so output is deterministic.
    public mutating func append(_ value: JSONValue) {
        switch value {
        case .null: append(raw: "null")
        case .bool(let flag): flag ? append(raw: "true") : append(raw: "false")
        case .int(let number): append(number)
        case .double(let number): append(number)
        case .string(let text): append(string: text)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                append(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                append(string: key)
                bytes.append(UInt8(ascii: ":"))
                append(members[key]!)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }
}
