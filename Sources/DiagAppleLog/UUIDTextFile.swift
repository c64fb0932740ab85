/// A uuidtext file (`uuidtext/AB/CDEF…`): the format strings of one image (a program or
/// library), by their offset in the image, and the image's path.
public struct UUIDTextFile: Sendable {
    struct Range: Sendable {
        var start: UInt64
        var size: UInt32
        var dataOffset: Int
    }

    let bytes: [UInt8]
    let ranges: [Range]
    public let imagePath: String

    public init(bytes: [UInt8], name: String) throws(AppleLogError) {
        var reader = LittleEndianReader(bytes, context: "uuidtext file \(name)")
        let signature = try reader.u32("signature")
        guard signature == 0x6677_8899 else {
            throw reader.failure("signature 0x\(String(signature, radix: 16)) (a uuidtext file starts with 99 88 77 66)")
        }
        _ = try reader.u32("major version")
        _ = try reader.u32("minor version")
        let count = Int(try reader.u32("entry count"))
        try reader.need(count * 8, "\(count) entry descriptors")
        var ranges: [Range] = []
        var dataOffset = 16 + count * 8
        for _ in 0..<count {
            let start = UInt64(try reader.u32("entry range start"))
            let size = try reader.u32("entry size")
            guard Int(size) <= bytes.count - dataOffset else {
                throw reader.failure("entry of \(size) bytes at file offset \(dataOffset) runs past the end (\(bytes.count) bytes)")
            }
            ranges.append(Range(start: start, size: size, dataOffset: dataOffset))
            dataOffset += Int(size)
        }
        self.bytes = bytes
        self.ranges = ranges
        imagePath = bytes.cString(from: dataOffset, upTo: bytes.count) ?? ""
    }

    /// The NUL-terminated string at `offset` of the image, if a range holds it.
    public func string(at offset: UInt64) -> String? {
        for range in ranges where offset >= range.start && offset - range.start < UInt64(range.size) {
            let start = range.dataOffset + Int(offset - range.start)
            return bytes.cString(from: start, upTo: range.dataOffset + Int(range.size))
        }
        return nil
    }
}
