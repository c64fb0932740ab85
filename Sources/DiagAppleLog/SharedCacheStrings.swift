/// A shared-cache strings file (`uuidtext/dsc/<UUID>`, signature "hcsd", versions 1 and 2):
/// the format strings of every library in a dyld shared cache, and which library each comes from.
public struct SharedCacheStrings: Sendable {
    struct Range: Sendable {
        var start: UInt64
        var size: UInt32
        var dataOffset: Int
        var imageIndex: Int
    }

    public struct Image: Sendable {
        public var textOffset: UInt64
        public var textSize: UInt32
        public var uuid: AppleUUID
        public var path: String
    }

    let bytes: [UInt8]
    let ranges: [Range]
    public let images: [Image]
    public let majorVersion: UInt16

    public init(bytes: [UInt8], name: String) throws(AppleLogError) {
        var reader = LittleEndianReader(bytes, context: "dsc file \(name)")
        let signature = try reader.u32("signature")
        guard signature == 0x6473_6368 else {
            throw reader.failure("signature 0x\(String(signature, radix: 16)) (a dsc file starts with \"hcsd\")")
        }
        majorVersion = try reader.u16("major version")
        _ = try reader.u16("minor version")
        guard majorVersion == 1 || majorVersion == 2 else {
            throw reader.failure("format version \(majorVersion) (accepted: 1 and 2)")
        }
        let rangeCount = Int(try reader.u32("range count"))
        let imageCount = Int(try reader.u32("UUID count"))
        let rangeSize = majorVersion == 1 ? 16 : 24, imageSize = majorVersion == 1 ? 28 : 32
        try reader.need(rangeCount * rangeSize, "\(rangeCount) range descriptors")
        var ranges: [Range] = []
        for _ in 0..<rangeCount {
            var range: Range
            if majorVersion == 1 {
                let image = Int(try reader.u32("range UUID index"))
                let start = UInt64(try reader.u32("range offset"))
                let data = Int(try reader.u32("range data offset"))
                range = Range(start: start, size: try reader.u32("range size"), dataOffset: data, imageIndex: image)
            } else {
                let start = try reader.u64("range offset")
                let data = Int(try reader.u32("range data offset"))
                let size = try reader.u32("range size")
                let image = try reader.u64("range UUID index")
                range = Range(start: start, size: size, dataOffset: data, imageIndex: Int(clamping: image))
            }
            guard range.dataOffset <= bytes.count, Int(range.size) <= bytes.count - range.dataOffset else {
                throw reader.failure("range at data offset \(range.dataOffset) of \(range.size) bytes runs past the end (\(bytes.count) bytes)")
            }
            ranges.append(range)
        }
        try reader.need(imageCount * imageSize, "\(imageCount) UUID descriptors")
        var images: [Image] = []
        for _ in 0..<imageCount {
            let textOffset = majorVersion == 1 ? UInt64(try reader.u32("image text offset")) : try reader.u64("image text offset")
            let textSize = try reader.u32("image text size")
            let uuid = try reader.uuid("image UUID")
            let pathOffset = Int(try reader.u32("image path offset"))
            images.append(Image(textOffset: textOffset, textSize: textSize, uuid: uuid, path: bytes.cString(from: pathOffset, upTo: bytes.count) ?? ""))
        }
        for range in ranges where range.imageIndex >= images.count {
            throw reader.failure("a range names image \(range.imageIndex), the file has \(images.count)")
        }
        self.bytes = bytes
        self.ranges = ranges
        self.images = images
    }

    /// The format string at `offset` in the shared cache, with the image it belongs to.
    public func string(at offset: UInt64) -> (format: String, image: Image)? {
        for range in ranges where offset >= range.start && offset - range.start < UInt64(range.size) {
            let start = range.dataOffset + Int(offset - range.start)
            guard let text = bytes.cString(from: start, upTo: range.dataOffset + Int(range.size)) else { return nil }
            return (text, images[range.imageIndex])
        }
        return nil
    }
}
