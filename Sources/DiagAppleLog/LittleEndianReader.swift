import Foundation

/// A bounded little-endian reader over bytes taken from a file: every read checks that the
/// bytes are there and throws, naming the structure and its offset in the file, when not.
struct LittleEndianReader {
    let bytes: [UInt8]
    /// Where `bytes[0]` sits in the file, so errors give file offsets.
    let base: Int
    private(set) var offset: Int
    let end: Int
    /// What is being read, for errors: "tracev3 file x: catalog".
    let context: String

    init(_ bytes: [UInt8], base: Int = 0, start: Int = 0, end: Int? = nil, context: String) {
        self.bytes = bytes
        self.base = base
        offset = start
        self.end = min(end ?? bytes.count, bytes.count)
        self.context = context
    }

    var remaining: Int { end - offset }
    var position: Int { offset }

    func failure(_ what: String) -> AppleLogError {
        AppleLogError("\(context): \(what) at offset \(base + offset)")
    }

    mutating func need(_ count: Int, _ what: String) throws(AppleLogError) {
        guard count >= 0, count <= remaining else {
            throw failure("\(what) needs \(count) bytes, only \(max(remaining, 0)) remain")
        }
    }

    mutating func skip(_ count: Int, _ what: String = "padding") throws(AppleLogError) {
        try need(count, what)
        offset += count
    }

    mutating func seek(to position: Int, _ what: String) throws(AppleLogError) {
        guard position >= 0, position <= end else {
            throw failure("\(what) points to \(position), outside 0…\(end)")
        }
        offset = position
    }

    mutating func u8(_ what: String) throws(AppleLogError) -> UInt8 {
        try need(1, what)
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u16(_ what: String) throws(AppleLogError) -> UInt16 {
        UInt16(truncatingIfNeeded: try unsigned(2, what))
    }

    mutating func u32(_ what: String) throws(AppleLogError) -> UInt32 {
        UInt32(truncatingIfNeeded: try unsigned(4, what))
    }

    mutating func u64(_ what: String) throws(AppleLogError) -> UInt64 {
        try unsigned(8, what)
    }

    /// An unsigned little-endian number of 1 to 8 bytes.
    mutating func unsigned(_ count: Int, _ what: String) throws(AppleLogError) -> UInt64 {
        try need(count, what)
        var value: UInt64 = 0
        for index in 0..<count { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        offset += count
        return value
    }

    mutating func take(_ count: Int, _ what: String) throws(AppleLogError) -> ArraySlice<UInt8> {
        try need(count, what)
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    /// A UUID stored as 16 bytes in big-endian order, as Apple's files keep them.
    mutating func uuid(_ what: String) throws(AppleLogError) -> AppleUUID {
        AppleUUID(try take(16, what))
    }

    /// Skips to the next multiple of `alignment` counted from `origin`, not past the end.
    mutating func align(_ alignment: Int, from origin: Int = 0) {
        let misalignment = (offset - origin) % alignment
        if misalignment != 0 { offset = min(end, offset + alignment - misalignment) }
    }
}

/// A UUID as the files keep it (16 big-endian bytes), printed as Apple prints it.
public struct AppleUUID: Sendable, Hashable, CustomStringConvertible {
    public let high: UInt64
    public let low: UInt64

    init(_ bytes: ArraySlice<UInt8>) {
        var high: UInt64 = 0, low: UInt64 = 0
        for (index, byte) in bytes.enumerated() {
            if index < 8 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt64(byte) }
        }
        self.high = high
        self.low = low
    }

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    public var isZero: Bool { high == 0 && low == 0 }

    /// 32 upper-case hex digits, no dashes: the names of uuidtext and dsc files.
    public var hex: String { text(dashes: false) }

    /// `AB414C1E-C023-3A05-AF22-029CC5E160EA`.
    public var description: String { text(dashes: true) }

    private static let digits = Array("0123456789ABCDEF".utf8)

    private func text(dashes: Bool) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(36)
        for index in 0..<32 {
            if dashes, [8, 12, 16, 20].contains(index) { output.append(UInt8(ascii: "-")) }
            let word = index < 16 ? high : low
            let shift = UInt64(60 - 4 * (index % 16))
            output.append(Self.digits[Int(word >> shift & 0xF)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The 16 bytes in file order.
    public var bytes: [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64($0))) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * UInt64($0))) }
    }
}

extension Array where Element == UInt8 {
    /// A NUL-terminated UTF-8 string at `start` within `start..<end` (the whole range when no NUL).
    func cString(from start: Int, upTo end: Int) -> String? {
        guard start >= 0, start <= end, end <= count else { return nil }
        var stop = start
        while stop < end, self[stop] != 0 { stop += 1 }
        return String(decoding: self[start..<stop], as: UTF8.self)
    }
}
