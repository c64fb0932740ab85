import Testing
@testable import DiagAppleLog
import TestSupport

/// The Swift LZ4 decoder against Debian's `lz4` tool, and its refusals of damaged blocks.
@Suite struct LZ4BlockTests {
    /// Random data with repeats (so that it compresses, as logs do): random bytes, and copies
    /// of earlier stretches at random distances and lengths, some overlapping themselves.
    static func compressibleData(size: Int, seed: UInt64) -> [UInt8] {
        var picker = SeededPicker(state: seed)
        var data: [UInt8] = []
        while data.count < size {
            if data.count > 16, picker.int(100) < 60 {
                let distance = 1 + picker.int(min(data.count, 70_000) - 1)
                let length = 4 + picker.int(300)
                for _ in 0..<length where data.count < size { data.append(data[data.count - distance]) }
            } else {
                for _ in 0..<(1 + picker.int(40)) where data.count < size { data.append(UInt8(picker.int(256))) }
            }
        }
        return data
    }

    @Test(arguments: [(100, 1), (4096, 2), (65_536, 3), (300_000, 4), (1_000_000, 5)])
    func decodesWhatTheLZ4ToolWrites(size: Int, seed: UInt64) throws {
        let data = Self.compressibleData(size: size, seed: seed)
        let block = try LZ4Tool.compressBlock(data)
        #expect(block.count < data.count)
        var output: [UInt8] = []
        try LZ4Block.decompress(block[...], expectedSize: data.count, into: &output, context: "test")
        #expect(output == data)
    }

    @Test func refusesAMatchBeforeTheStart() {
        // Token: 1 literal, match; literal 'a'; offset 5 with only 1 byte of output.
        let block: [UInt8] = [0x10, 0x61, 0x05, 0x00]
        var output: [UInt8] = []
        #expect(throws: AppleLogError.self) { try LZ4Block.decompress(block[...], expectedSize: 10, into: &output, context: "t") }
    }

    @Test func refusesOutputPastTheDeclaredSize() throws {
        let data = Self.compressibleData(size: 10_000, seed: 9)
        let block = try LZ4Tool.compressBlock(data)
        var output: [UInt8] = []
        #expect(throws: AppleLogError.self) { try LZ4Block.decompress(block[...], expectedSize: 9_999, into: &output, context: "t") }
        #expect(output.count <= 9_999)
    }

    @Test func refusesTruncatedBlocks() throws {
        let data = Self.compressibleData(size: 5_000, seed: 11)
        let block = try LZ4Tool.compressBlock(data)
        for cut in [1, 2, 3, block.count / 2, block.count - 1] {
            var output: [UInt8] = []
            #expect(throws: AppleLogError.self) { try LZ4Block.decompress(block[..<cut], expectedSize: data.count, into: &output, context: "t") }
        }
    }

    @Test func refusesALengthThatRunsOn() {
        // Literal length 15 + 255 + 255 + … past the declared size, then the input ends.
        let block: [UInt8] = [0xF0] + [UInt8](repeating: 0xFF, count: 100)
        var output: [UInt8] = []
        #expect(throws: AppleLogError.self) { try LZ4Block.decompress(block[...], expectedSize: 1_000, into: &output, context: "t") }
    }
}
