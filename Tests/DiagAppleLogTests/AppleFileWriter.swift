import Foundation
@testable import DiagAppleLog

/// Little-endian bytes, the way Apple's unified logging files are laid out, for writing test
/// inputs from the documented structures.
struct LEBytes {
    var data: [UInt8] = []

    mutating func u8(_ value: UInt8) { data.append(value) }
    mutating func u16(_ value: UInt16) { for shift in stride(from: 0, to: 16, by: 8) { data.append(UInt8(truncatingIfNeeded: value >> UInt16(shift))) } }
    mutating func u32(_ value: UInt32) { for shift in stride(from: 0, to: 32, by: 8) { data.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) } }
    mutating func u64(_ value: UInt64) { for shift in stride(from: 0, to: 64, by: 8) { data.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) } }
    mutating func u48(_ value: UInt64) { for shift in stride(from: 0, to: 48, by: 8) { data.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) } }
    mutating func uuid(_ value: AppleUUID) { data += value.bytes }
    mutating func bytes(_ value: [UInt8]) { data += value }
    mutating func cString(_ text: String) { data += Array(text.utf8) + [0] }
    /// `text` NUL-padded to exactly `size` bytes.
    mutating func fixed(_ text: String, _ size: Int) { data += (Array(text.utf8) + [UInt8](repeating: 0, count: size)).prefix(size) }
    mutating func align8() { while data.count % 8 != 0 { data.append(0) } }
    /// A chunk: tag, sub tag, size, data, padding to 8 bytes.
    mutating func chunk(tag: UInt32, subTag: UInt32 = 0, _ body: [UInt8]) {
        u32(tag)
        u32(subTag)
        u64(UInt64(body.count))
        data += body
        align8()
    }
}

/// Writes uuidtext, dsc and timesync files.
enum AppleFileWriter {
    static func uuidText(ranges: [(start: UInt32, strings: [UInt8])], imagePath: String) -> [UInt8] {
        var bytes = LEBytes()
        bytes.u32(0x6677_8899)
        bytes.u32(2)
        bytes.u32(1)
        bytes.u32(UInt32(ranges.count))
        for range in ranges {
            bytes.u32(range.start)
            bytes.u32(UInt32(range.strings.count))
        }
        for range in ranges { bytes.bytes(range.strings) }
        bytes.cString(imagePath)
        return bytes.data
    }

    /// A dsc file of `version` 1 or 2: one range per image, its strings at `rangeOffset`.
    static func sharedCache(version: UInt16, images: [(uuid: AppleUUID, path: String, rangeOffset: UInt64, strings: [UInt8])]) -> [UInt8] {
        let rangeSize = version == 1 ? 16 : 24, imageSize = version == 1 ? 28 : 32
        var dataOffset = 16 + images.count * (rangeSize + imageSize)
        var bytes = LEBytes()
        bytes.bytes(Array("hcsd".utf8))
        bytes.u16(version)
        bytes.u16(0)
        bytes.u32(UInt32(images.count))
        bytes.u32(UInt32(images.count))
        var pathOffsets: [Int] = []
        var pathOffset = dataOffset + images.reduce(0) { $0 + $1.strings.count }
        for (index, image) in images.enumerated() {
            if version == 1 {
                bytes.u32(UInt32(index)); bytes.u32(UInt32(image.rangeOffset)); bytes.u32(UInt32(dataOffset)); bytes.u32(UInt32(image.strings.count))
            } else {
                bytes.u64(image.rangeOffset); bytes.u32(UInt32(dataOffset)); bytes.u32(UInt32(image.strings.count)); bytes.u64(UInt64(index))
            }
            dataOffset += image.strings.count
            pathOffsets.append(pathOffset)
            pathOffset += image.path.utf8.count + 1
        }
        for (index, image) in images.enumerated() {
            if version == 1 { bytes.u32(UInt32(image.rangeOffset)) } else { bytes.u64(image.rangeOffset) }
            bytes.u32(UInt32(image.strings.count))
            bytes.uuid(image.uuid)
            bytes.u32(UInt32(pathOffsets[index]))
        }
        for image in images { bytes.bytes(image.strings) }
        for image in images { bytes.cString(image.path) }
        return bytes.data
    }

    static func timesync(boot: AppleUUID, numerator: UInt32, denominator: UInt32, bootTime: Int64, syncs: [(continuous: UInt64, wall: Int64)]) -> [UInt8] {
        var bytes = LEBytes()
        bytes.u16(0xBBB0); bytes.u16(48); bytes.u32(0)
        bytes.uuid(boot)
        bytes.u32(numerator); bytes.u32(denominator)
        bytes.u64(UInt64(bitPattern: bootTime))
        bytes.u32(0); bytes.u32(0)
        for sync in syncs {
            bytes.u16(0x7354); bytes.u16(32); bytes.u32(0)
            bytes.u64(sync.continuous)
            bytes.u64(UInt64(bitPattern: sync.wall))
            bytes.u32(0); bytes.u32(0)
        }
        return bytes.data
    }

    /// Strings laid out one after another from offset 0; returns the bytes and each offset.
    static func strings(_ texts: [String]) -> (bytes: [UInt8], offsets: [UInt32]) {
        var bytes: [UInt8] = [], offsets: [UInt32] = []
        for text in texts {
            offsets.append(UInt32(bytes.count))
            bytes += Array(text.utf8) + [0]
        }
        return (bytes, offsets)
    }
}
