/// What a column's bytes hold that the frame writer must know before copying them: bytes past
/// ASCII (the `String` path that repairs invalid UTF-8) and the bytes an RFC 5424 SD value escapes
/// (`"`, `\`, `]`). Read eight bytes at a time: the forward scans every text column of every
/// record, most of them plain ASCII with nothing to escape.
struct ByteScan {
    private(set) var hasNonASCII = false
    private(set) var hasSDSpecial = false

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let raw = UnsafeRawPointer(base)
        var high: UInt64 = 0
        var special: UInt64 = 0
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            high |= word
            special |= Self.specialBytes(word)
            offset += 8
        }
        // The last bytes as one word too: the eight that end the text (overlapping bytes already
        // read changes nothing), or a short text padded with zeros (neither special nor high).
        if offset < bytes.count {
            var word: UInt64 = 0
            if bytes.count >= 8 {
                word = raw.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)
            } else {
                var filled = 0
                if bytes.count & 4 != 0 {
                    word = UInt64(raw.loadUnaligned(as: UInt32.self))
                    filled = 4
                }
                if bytes.count & 2 != 0 {
                    word |= UInt64(raw.loadUnaligned(fromByteOffset: filled, as: UInt16.self)) << (filled * 8)
                    filled += 2
                }
                if bytes.count & 1 != 0 {
                    word |= UInt64(raw.load(fromByteOffset: filled, as: UInt8.self)) << (filled * 8)
                }
            }
            high |= word
            special |= Self.specialBytes(word)
        }
        hasNonASCII = high & Self.highBits != 0
        hasSDSpecial = special != 0
    }

    /// Non-zero when a byte of `word` is `"` (0x22), `\` (0x5C) or `]` (0x5D).
    @inline(__always)
    private static func specialBytes(_ word: UInt64) -> UInt64 {
        // `\` and `]` differ in the lowest bit only: cleared, one comparison finds both.
        zeroByte(word ^ (ones &* 0x22)) | zeroByte((word ^ (ones &* 0x5C)) & (ones &* 0xFE))
    }

    /// Non-zero exactly when a byte of `value` is 0 (the borrow of a lower zero byte can mark a
    /// 0x01 above it too, but only when there is a zero byte).
    @inline(__always)
    private static func zeroByte(_ value: UInt64) -> UInt64 {
        (value &- ones) & ~value & highBits
    }
}
