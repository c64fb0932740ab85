import Glibc

/// A growable byte buffer written through a pointer: the frame encoder's hot path appends a few
/// hundred small pieces a record, without the uniqueness and capacity checks of `Array`'s
/// appends. Not an owner: whoever makes one calls `deallocate` once (`RFC5424RowEncoder`).
struct ByteWriter {
    private(set) var base: UnsafeMutablePointer<UInt8>
    var count = 0
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    func deallocate() { base.deallocate() }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always) mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(extra) }
    }

    @inline(never) private mutating func grow(_ extra: Int) {
        let newCapacity = max(capacity * 2, count + extra)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always) mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always) mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    @inline(__always) mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Decimal digits, with a `-` for a negative value; written two at a time from the end.
    mutating func appendDigits(_ value: Int64) {
        reserve(20)
        if value < 0 {
            base[count] = UInt8(ascii: "-")
            count += 1
        }
        var magnitude = value.magnitude
        var digits = 1
        var threshold: UInt64 = 10
        while magnitude >= threshold {
            digits += 1
            if digits == 20 { break }
            threshold &*= 10
        }
        var position = count + digits
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

    /// "00", "01", … "99", one after the other.
    private static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// `value`'s last `width` decimal digits, zeros in front (`value` ≥ 0).
    mutating func appendDigits(_ value: Int64, width: Int) {
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

    /// An RFC 5424 SD value: `"`, `\` and `]` take a backslash (§6.3.3).
    mutating func appendEscaped(_ value: UnsafeBufferPointer<UInt8>) {
        appendEscaped(value, hasSpecial: ByteScan(value).hasSDSpecial)
    }

    /// The same, `hasSpecial` telling whether `value` holds a byte to escape (`ByteScan`).
    mutating func appendEscaped(_ value: UnsafeBufferPointer<UInt8>, hasSpecial: Bool) {
        guard hasSpecial else {
            append(value)
            return
        }
        reserve(value.count * 2)
        for byte in value {
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "]") {
                base[count] = UInt8(ascii: "\\")
                count += 1
            }
            base[count] = byte
            count += 1
        }
    }
}
