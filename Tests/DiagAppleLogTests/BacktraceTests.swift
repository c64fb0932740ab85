import Foundation
import Testing
@testable import DiagAppleLog
import TestSupport

/// Tracepoints with a backtrace (flag 0x1000), in a tracev3 file written here: `diag show`
/// gives each frame's image UUID and offset as `log show --style json` does
/// (`backtrace.frames`, here under `metadata`), and the values after the backtrace still render.
@Suite struct BacktraceTests {
    static let imageA = AppleUUID(high: 0xA1A1_A1A1_0000_0001, low: 0x0000_0000_0000_00AA)
    static let imageB = AppleUUID(high: 0xB2B2_B2B2_0000_0002, low: 0x0000_0000_0000_00BB)

    /// The values data of a tracepoint: a backtrace (images, frames as (offset, image index)),
    /// then a string and a number whose items address it from the start of the values data.
    static func tracepointData(images: [AppleUUID], frames: [(offset: UInt32, index: UInt8)], frameCount: UInt16? = nil) -> [UInt8] {
        var backtrace = LEBytes()
        backtrace.u16(1); backtrace.u8(0x12); backtrace.u8(UInt8(images.count)); backtrace.u16(frameCount ?? UInt16(frames.count))
        for image in images { backtrace.uuid(image) }
        for frame in frames { backtrace.u32(frame.offset) }
        for frame in frames { backtrace.u8(frame.index) }
        let text = Array("zone-7\0".utf8)
        var data = LEBytes()
        data.u32(0x4000)  // the caller's address in the main executable
        data.u8(0); data.u8(2)
        data.u8(0x22); data.u8(4); data.u16(UInt16(backtrace.data.count)); data.u16(UInt16(text.count))
        data.u8(0x00); data.u8(4); data.u32(3)
        data.bytes(backtrace.data); data.bytes(text)
        return data.data
    }

    /// A tracev3 file with one process whose main executable's uuidtext holds the format.
    static func write(_ data: [UInt8], in folder: TemporaryDirectory) throws -> String {
        let writer = TraceV3Writer()
        let format = "uploading %s, attempt %d"
        try FileManager.default.createDirectory(at: folder.file(String(writer.mainUUID.hex.prefix(2))), withIntermediateDirectories: true)
        try Data(AppleFileWriter.uuidText(ranges: [(0x100, Array((format + "\0").utf8))], imagePath: "/usr/libexec/syncd"))
            .write(to: folder.file(String(writer.mainUUID.hex.prefix(2)) + "/" + String(writer.mainUUID.hex.dropFirst(2))))
        let chunk = writer.firehose(baseTime: writer.startContinuous, tracepoints: [
            .init(logType: 0x10, flags: 0x1002, format: 0x100, delta: 24, data: data),
        ])
        let file = writer.header() + writer.catalog(chunkSetSizes: [chunk.count]) + (try writer.chunkSet(chunk, compressed: true))
        let path = folder.file("0000000000000001.tracev3").path
        try Data(file).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func framesAreShownWithTheirImagesAndOffsets() throws {
        let folder = try TemporaryDirectory("apple-backtrace")
        // Four frames over two images; the last names an image index the list does not have.
        let data = Self.tracepointData(images: [Self.imageA, Self.imageB], frames: [(0x1F40, 0), (0x24, 1), (0x7FFF_0000, 0), (0x10, 5)])
        let path = try Self.write(data, in: folder)
        let output = try run(BuiltProducts.path("diag"), ["show", path, "--style", "ndjson"])
        #expect(output.status == 0, "\(output.stderr)")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(record["eventMessage"] as? String == "uploading zone-7, attempt 3")
        let metadata = try #require(record["metadata"] as? [String: Any])
        // The caller's own offset in the main executable (the tracepoint's program counter).
        #expect((metadata["senderProgramCounter"] as? NSNumber)?.int64Value == 0x4000)
        let backtrace = try #require(metadata["backtrace"] as? [String: Any])
        let frames = try #require(backtrace["frames"] as? [[String: Any]])
        #expect(frames.count == 4)
        #expect(frames.map { $0["imageUUID"] as? String } == [
            "A1A1A1A1-0000-0001-0000-0000000000AA", "B2B2B2B2-0000-0002-0000-0000000000BB", "A1A1A1A1-0000-0001-0000-0000000000AA", nil,
        ])
        #expect(frames.map { ($0["imageOffset"] as? NSNumber)?.int64Value } == [8000, 36, 2_147_418_112, 16])
    }

    @Test func aBacktraceLongerThanItsDataIsRefused() throws {
        let folder = try TemporaryDirectory("apple-backtrace")
        // One frame written, 300 claimed.
        let data = Self.tracepointData(images: [Self.imageA], frames: [(0x10, 0)], frameCount: 300)
        let path = try Self.write(data, in: folder)
        let output = try run(BuiltProducts.path("diag"), ["show", path])
        #expect(output.status == 65)
        #expect(output.stderr.contains("0000000000000001.tracev3"), "\(output.stderr)")
        #expect(output.stderr.contains("backtrace claims 1 images and 300 frames (1516 bytes), only"), "\(output.stderr)")
    }
}
