/// A cursor over the bytes of one line, for the text formats' header parsers.
struct ByteCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var index: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    var atEnd: Bool { index >= bytes.count }
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Skips spaces; returns how many.
    @discardableResult
    mutating func skipSpaces() -> Int {
        let start = index
        while index < bytes.count, bytes[index] == 0x20 { index += 1 }
        return index - start
    }

    /// A number of `minimum`…`maximum` decimal digits.
    mutating func number(minimum: Int = 1, maximum: Int) -> Int64? {
        let start = index
        var value: Int64 = 0
        while index < bytes.count, index - start < maximum, bytes[index] &- 0x30 < 10 {
            value = value * 10 + Int64(bytes[index] - 0x30)
            index += 1
        }
        guard index - start >= minimum else { index = start; return nil }
        return value
    }

    /// `HH:MM:SS` with an optional `.fraction`: seconds of the day and nanoseconds.
    mutating func timeOfDay(fractionRequired: Bool) -> (seconds: Int64, nanoseconds: Int64)? {
        guard let hour = number(minimum: 2, maximum: 2), take(0x3A),
              let minute = number(minimum: 2, maximum: 2), take(0x3A),
              let second = number(minimum: 2, maximum: 2),
              hour < 24, minute < 60, second < 61
        else { return nil }
        var nanoseconds: Int64 = 0
        if take(0x2E) {
            let start = index
            guard let fraction = number(maximum: 9) else { return nil }
            nanoseconds = fraction
            for _ in (index - start)..<9 { nanoseconds *= 10 }
            while index < bytes.count, bytes[index] &- 0x30 < 10 { index += 1 }
        } else if fractionRequired {
            return nil
        }
        return (hour * 3600 + minute * 60 + second, nanoseconds)
    }

    /// Bytes up to the next space (not taking it).
    mutating func word() -> UnsafeBufferPointer<UInt8> {
        let start = index
        while index < bytes.count, bytes[index] != 0x20 { index += 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<index])
    }

    var rest: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[min(index, bytes.count)...])
    }
}

extension Slice where Base == UnsafeBufferPointer<UInt8> {
    func trimmingBlanks() -> Slice<UnsafeBufferPointer<UInt8>> {
        var lower = startIndex
        var upper = endIndex
        while lower < upper, base[lower] == 0x20 || base[lower] == 0x09 || base[lower] == 0x0D { lower += 1 }
        while upper > lower, base[upper - 1] == 0x20 || base[upper - 1] == 0x09 || base[upper - 1] == 0x0D { upper -= 1 }
        return base[lower..<upper]
    }

    func contains(utf8 needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard pattern.count <= count else { return false }
        var position = startIndex
        while position + pattern.count <= endIndex {
            if base[position] == pattern[0], base[position..<(position + pattern.count)].elementsEqual(pattern) { return true }
            position += 1
        }
        return false
    }
}

/// Makes a String from a line's bytes. Invalid UTF-8 is replaced with U+FFFD, and the 1-based
/// column of the first bad byte is returned so the caller can report the repair.
func decodeText(_ bytes: UnsafeBufferPointer<UInt8>) -> (text: String, invalidColumn: Int?) {
    if let text = String(validating: bytes, as: UTF8.self) { return (text, nil) }
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    var consumed = 0
    loop: while true {
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar): consumed += UTF8.width(scalar)
        case .emptyInput: break loop
        case .error: break loop
        }
    }
    return (String(decoding: bytes, as: UTF8.self), consumed + 1)
}
