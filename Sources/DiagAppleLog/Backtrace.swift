import DiagModel

/// The call stack a tracepoint carries when its flags have 0x1000 (has_backtrace): each frame
/// is an image and an offset into it, as `log show --backtrace` gives them. It sits at the start
/// of the values data, before the values (whose offsets count it):
///
///     u16 (seen 1), u8 (seen 0x12), u8 image count, u16 frame count,
///     image UUIDs (16 bytes each), frame offsets (u32 each), frame image indexes (u8 each)
///
/// dtformats reads the frame count as one byte and the next as unknown; mandiant's reader and
/// UnifiedLogReader read both as one u16, which agrees with it below 256 frames.
public struct Backtrace: Sendable, Equatable {
    public struct Frame: Sendable, Equatable {
        /// nil when the frame's index names no image of the list (shown without `imageUUID`).
        public var imageUUID: AppleUUID?
        public var imageOffset: UInt32
    }

    public var frames: [Frame]

    /// Reads the backtrace at the reader's position, leaving the reader where it was (the
    /// values that follow are addressed from the start of the values data, backtrace included).
    static func read(at reader: LittleEndianReader) throws(AppleLogError) -> Backtrace {
        var reader = reader
        _ = try reader.u16("backtrace marker")
        _ = try reader.u8("backtrace marker")
        let imageCount = Int(try reader.u8("backtrace image count"))
        let frameCount = Int(try reader.u16("backtrace frame count"))
        let needed = imageCount * 16 + frameCount * 5
        guard needed <= reader.remaining else {
            throw reader.failure("backtrace claims \(imageCount) images and \(frameCount) frames (\(needed) bytes), only \(reader.remaining) bytes of the tracepoint's values remain")
        }
        var images: [AppleUUID] = []
        images.reserveCapacity(imageCount)
        for _ in 0..<imageCount { images.append(try reader.uuid("backtrace image UUID")) }
        var offsets: [UInt32] = []
        offsets.reserveCapacity(frameCount)
        for _ in 0..<frameCount { offsets.append(try reader.u32("backtrace frame offset")) }
        var frames: [Frame] = []
        frames.reserveCapacity(frameCount)
        for offset in offsets {
            let index = Int(try reader.u8("backtrace frame image index"))
            frames.append(Frame(imageUUID: index < images.count ? images[index] : nil, imageOffset: offset))
        }
        return Backtrace(frames: frames)
    }

    /// `{"frames": [{"imageOffset": …, "imageUUID": "…"}, …]}`, the shape of `log show --style
    /// json`'s `backtrace` field.
    var json: JSONValue {
        .object(["frames": .array(frames.map { frame in
            var members: [String: JSONValue] = ["imageOffset": .int(Int64(frame.imageOffset))]
            if let uuid = frame.imageUUID { members["imageUUID"] = .string(uuid.description) }
            return .object(members)
        })])
    }
}
