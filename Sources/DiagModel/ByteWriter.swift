/// A growable byte buffer written through a pointer, for the hot paths that put records
/// together a few hundred small pieces at a time (NDJSON lines from rows or records, RFC 5424
/// frames) without the uniqueness and capacity checks of `Array`'s appends. It owns its memory:
/// not copyable (a copy that grew would free the other's buffer), freed by its `deinit`; a pool
/// that keeps buffers for reuse takes the memory out with `takeStorage()` and hands it back with
/// `init(adopting:capacity:)`.
public struct ByteWriter: ~Copyable {
    public private(set) var base: UnsafeMutablePointer<UInt8>
    public var count = 0
    public private(set) var capacity: Int

    public init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    /// A writer that owns `base`, `capacity` bytes from `UnsafeMutablePointer.allocate` (a
    /// buffer `takeStorage()` gave out), empty.
    public init(adopting base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    deinit { base.deallocate() }

    /// Ends the writer without freeing its memory, which the caller now owns (to adopt it into a
    /// later writer, or to deallocate it).
    public consuming func takeStorage() -> (base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        let storage = (base, capacity)
        discard self
        return storage
    }

    public var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Makes room for `extra` more bytes after `count`.
    @inlinable @inline(__always)
    public mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(extra) }
    }

    @usableFromInline @inline(never)
    mutating func grow(_ extra: Int) {
        let newCapacity = max(capacity * 2, count + extra)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inlinable @inline(__always)
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    @inlinable @inline(__always)
    public mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Decimal digits, with a `-` for a negative value, as `String(value)` writes them; written
    /// two at a time from the end.
    public mutating func appendDigits(_ value: Int64) {
        reserve(20)
        if value < 0 {
            base[count] = UInt8(ascii: "-")
            count += 1
        }
        var magnitude = value.magnitude
        var position = count + Self.decimalDigitCount(magnitude)
        count = position
        let pairs = Self.digitPairs.utf8Start
        while magnitude >= 100 {
            let pair = Int(magnitude % 100) * 2
            magnitude /= 100
            position -= 2
            base[position] = pairs[pair]
            base[position + 1] = pairs[pair + 1]
        }
        if magnitude >= 10 {
            let pair = Int(magnitude) * 2
            base[position - 2] = pairs[pair]
            base[position - 1] = pairs[pair + 1]
        } else {
            base[position - 1] = UInt8(ascii: "0") + UInt8(magnitude)
        }
    }

    /// How many decimal digits `magnitude` has (1 for 0).
    public static func decimalDigitCount(_ magnitude: UInt64) -> Int {
        var digits = 1
        var threshold: UInt64 = 10
        while magnitude >= threshold {
            digits += 1
            if digits == 20 { break }
            threshold &*= 10
        }
        return digits
    }

    /// "00", "01", … "99", one after the other.
    private static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// `value`'s last `width` decimal digits, zeros in front (`value` ≥ 0).
    public mutating func appendDigits(_ value: Int64, width: Int) {
        reserve(width)
        var rest = value
        var position = count + width
        count = position
        while position > count - width {
            position -= 1
            base[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }

    /// A timestamp as `Timestamp.append` formats it, with an ASCII separator.
    public mutating func appendTimestamp(
        nanoseconds: Int64, offsetSeconds: Int, fractionDigits: Int, separator: UInt8, zoneColon: Bool
    ) {
        reserve(Timestamp.maximumWrittenLength)
        count += Timestamp.write(nanoseconds: nanoseconds, offsetSeconds: offsetSeconds, fractionDigits: fractionDigits,
                                 separator: separator, zoneColon: zoneColon, to: base + count)
    }
}

extension ByteWriter {
    /// `utf8` as a quoted JSON string, escaped as `JSONWriter.append(string:)` escapes it (`"`,
    /// `\`, control characters; `/` left alone), runs without escapes skipped eight bytes at a
    /// time and copied at once. With `asciiOnly`, stops at the first byte past ASCII and returns
    /// false having written nothing (the caller repairs such text first), so that one pass over
    /// the bytes does both.
    @discardableResult
    public mutating func appendJSONString(_ utf8: UnsafeBufferPointer<UInt8>, asciiOnly: Bool = false) -> Bool {
        let start = count
        // Each byte takes at most six (\u00XX), plus the quotes.
        reserve(utf8.count * 6 + 2)
        var out = base + count
        out.pointee = UInt8(ascii: "\"")
        out += 1
        var runStart = 0
        var index = 0
        let source = utf8.baseAddress
        while index < utf8.count {
            if index + 8 <= utf8.count {
                let word = UnsafeRawPointer(source! + index).loadUnaligned(as: UInt64.self)
                if !Self.needsJSONEscape(word), !asciiOnly || word & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                    continue
                }
            }
            let byte = utf8[index]
            let position = index
            index += 1
            if asciiOnly, byte >= 0x80 {
                count = start
                return false
            }
            // DEL and the C1 controls (U+0080…U+009F, UTF-8 0xC2 0x80…0x9F) are escaped too: valid
            // JSON either way, and a terminal that shows this output is not driven by them.
            var c1: UInt8?
            if byte == 0xC2, index < utf8.count, utf8[index] >= 0x80, utf8[index] <= 0x9F { c1 = utf8[index] }
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F || c1 != nil else { continue }
            if runStart < position {
                out.update(from: source! + runStart, count: position - runStart)
                out += position - runStart
            }
            runStart = position + 1
            if let c1 {
                index += 1
                runStart += 1
                out.pointee = UInt8(ascii: "\\")
                let hex: StaticString = "0123456789abcdef"
                out[1] = UInt8(ascii: "u"); out[2] = UInt8(ascii: "0"); out[3] = UInt8(ascii: "0")
                out[4] = hex.utf8Start[Int(c1 >> 4)]; out[5] = hex.utf8Start[Int(c1 & 0xF)]
                out += 6
                continue
            }
            out.pointee = UInt8(ascii: "\\")
            switch byte {
            case UInt8(ascii: "\""): out[1] = UInt8(ascii: "\""); out += 2
            case UInt8(ascii: "\\"): out[1] = UInt8(ascii: "\\"); out += 2
            case 0x0A: out[1] = UInt8(ascii: "n"); out += 2
            case 0x0D: out[1] = UInt8(ascii: "r"); out += 2
            case 0x09: out[1] = UInt8(ascii: "t"); out += 2
            case 0x08: out[1] = UInt8(ascii: "b"); out += 2
            case 0x0C: out[1] = UInt8(ascii: "f"); out += 2
            default:
                let hex: StaticString = "0123456789abcdef"
                out[1] = UInt8(ascii: "u")
                out[2] = UInt8(ascii: "0")
                out[3] = UInt8(ascii: "0")
                out[4] = hex.utf8Start[Int(byte >> 4)]
                out[5] = hex.utf8Start[Int(byte & 0xF)]
                out += 6
            }
        }
        if runStart < utf8.count {
            out.update(from: source! + runStart, count: utf8.count - runStart)
            out += utf8.count - runStart
        }
        out.pointee = UInt8(ascii: "\"")
        out += 1
        count = out - base
        return true
    }

    /// Whether any of the eight bytes is below 0x20, a `"`, a `\\`, DEL or 0xC2 (bit tricks on the word:
    /// a byte below n leaves its high bit set in `(x - n) & ~x`; bytes past ASCII are masked).
    @inline(__always)
    static func needsJSONEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
        let control = (word &- ones &* 0x20) & ~word & highs != 0
        return control || hasZero(word ^ (ones &* 0x22)) || hasZero(word ^ (ones &* 0x5C))
            || hasZero(word ^ (ones &* 0x7F)) || hasZero(word ^ (ones &* 0xC2))
    }
}
