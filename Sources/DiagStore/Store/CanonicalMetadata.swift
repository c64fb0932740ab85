import DiagModel

/// Tells whether a stored `metadata` text is already what reading it (`MetadataText.decode`)
/// and writing it again (`JSONWriter.append(.object(…))`) would give, so that a row can be
/// written as NDJSON with its metadata copied as is. `MetadataText.encode` writes exactly that
/// form, so nearly every stored text passes; anything this check does not know for certain
/// (escapes, non-ASCII, whitespace, exponents, deep nesting, numbers whose text is not the
/// writer's) fails it, and the caller decodes and writes the value instead: a wrong "no" costs
/// time, never a byte.
enum CanonicalMetadata {
    static func isCanonical(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var scanner = Scanner(bytes: bytes)
        guard scanner.peek == UInt8(ascii: "{"), scanner.object(depth: 0) else { return false }
        return scanner.index == bytes.count
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        static let maxDepth = 8

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func value(depth: Int) -> Bool {
            guard let byte = peek else { return false }
            switch byte {
            case UInt8(ascii: "{"): return object(depth: depth + 1)
            case UInt8(ascii: "["): return array(depth: depth + 1)
            case UInt8(ascii: "\""): return string() != nil
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return number()
            }
        }

        /// Keys in strictly increasing byte order (the writer's sorted order for ASCII keys,
        /// and no repeated key, whose last value the reader would keep).
        mutating func object(depth: Int) -> Bool {
            guard depth <= Self.maxDepth else { return false }
            index += 1
            if peek == UInt8(ascii: "}") {
                index += 1
                return true
            }
            var previous: UnsafeBufferPointer<UInt8>?
            while true {
                guard peek == UInt8(ascii: "\""), let key = string() else { return false }
                if let previous, !Self.ascending(previous, key) { return false }
                previous = key
                guard peek == UInt8(ascii: ":") else { return false }
                index += 1
                guard value(depth: depth) else { return false }
                if peek == UInt8(ascii: ",") {
                    index += 1
                } else {
                    guard peek == UInt8(ascii: "}") else { return false }
                    index += 1
                    return true
                }
            }
        }

        mutating func array(depth: Int) -> Bool {
            guard depth <= Self.maxDepth else { return false }
            index += 1
            if peek == UInt8(ascii: "]") {
                index += 1
                return true
            }
            while true {
                guard value(depth: depth) else { return false }
                if peek == UInt8(ascii: ",") {
                    index += 1
                } else {
                    guard peek == UInt8(ascii: "]") else { return false }
                    index += 1
                    return true
                }
            }
        }

        /// A string of printable ASCII without escapes; its contents.
        mutating func string() -> UnsafeBufferPointer<UInt8>? {
            index += 1
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)])
                }
                guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
                index += 1
            }
            return nil
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += count
            return true
        }

        /// An integer of at most 18 digits as `String(Int64)` writes it, or a number with a
        /// fraction whose `Double` the writer writes back as the same text.
        mutating func number() -> Bool {
            let start = index
            if peek == UInt8(ascii: "-") { index += 1 }
            let digitsStart = index
            while let byte = peek, byte &- UInt8(ascii: "0") < 10 { index += 1 }
            let digits = index - digitsStart
            guard digits > 0, digits <= 18 else { return false }
            if bytes[digitsStart] == UInt8(ascii: "0"), digits > 1 { return false }
            if peek != UInt8(ascii: ".") {
                if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") { return false }
                // "-0" reads as the integer 0, written "0".
                return !(start != digitsStart && digits == 1 && bytes[digitsStart] == UInt8(ascii: "0"))
            }
            index += 1
            let fractionStart = index
            while let byte = peek, byte &- UInt8(ascii: "0") < 10 { index += 1 }
            guard index > fractionStart, peek != UInt8(ascii: "e"), peek != UInt8(ascii: "E") else { return false }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            guard let value = Double(text), value.isFinite else { return false }
            var writer = JSONWriter(reservingCapacity: 32)
            writer.append(value)
            return writer.bytes.elementsEqual(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        }

        static func ascending(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
            lhs.lexicographicallyPrecedes(rhs)
        }
    }
}
