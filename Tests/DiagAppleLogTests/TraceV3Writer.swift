import Foundation
@testable import DiagAppleLog
import TestSupport

/// Writes a tracev3 file from the documented structures: header, one catalog with one process,
/// and chunk sets (LZ4-compressed through Debian's `lz4`, or stored) of the chunks given.
struct TraceV3Writer {
    var bootUUID = AppleUUID(high: 0x1111_2222_3333_4444, low: 0x5555_6666_7777_8888)
    var numerator: UInt32 = 125
    var denominator: UInt32 = 3
    var startContinuous: UInt64 = 24_000_000
    var startSeconds: Int32 = 1_700_000_000
    var mainUUID = AppleUUID(high: 0xAB41_4C1E_C023_3A05, low: 0xAF22_029C_C5E1_60EA)
    var cacheUUID = AppleUUID(high: 0x2576_AD25_8753_3C11, low: 0x9308_541E_6149_A88D)
    var libraryUUID = AppleUUID(high: 0x0102_0304_0506_0708, low: 0x090A_0B0C_0D0E_0F10)
    var pid: UInt32 = 4242
    var euid: UInt32 = 501
    var procID: (first: UInt64, second: UInt32) = (77, 9)
    /// Subsystem identifier 1 → this pair.
    var subsystem = ("com.example.sync", "engine")

    func header() -> [UInt8] {
        var body = LEBytes()
        body.u32(numerator); body.u32(denominator)
        body.u64(startContinuous)
        body.u32(UInt32(bitPattern: startSeconds)); body.u32(0); body.u32(0)
        body.u32(0); body.u32(0); body.u32(1)
        body.u32(0x6100); body.u32(8); body.u64(startContinuous)
        body.u32(0x6101); body.u32(56); body.u32(0); body.u32(0); body.fixed("21A5248", 16); body.fixed("iPhone15,2", 32)
        body.u32(0x6102); body.u32(24); body.uuid(bootUUID); body.u32(88); body.u32(0)
        body.u32(0x6103); body.u32(48); body.fixed("/var/db/timezone/zoneinfo/UTC", 48)
        precondition(body.data.count == 208)
        var file = LEBytes()
        file.chunk(tag: 0x1000, subTag: 0x11, body.data)
        return file.data
    }

    /// A catalog announcing `chunkSets` chunk sets of the given uncompressed sizes.
    func catalog(chunkSetSizes: [Int]) -> [UInt8] {
        let uuids = [mainUUID, cacheUUID, libraryUUID]
        var strings = LEBytes()
        strings.cString(subsystem.0)
        let categoryOffset = UInt16(strings.data.count)
        strings.cString(subsystem.1)
        strings.align8()
        var process = LEBytes()
        process.u16(0); process.u16(0); process.u16(0); process.u16(1)
        process.u64(procID.first); process.u32(procID.second)
        process.u32(pid); process.u32(euid); process.u32(0)
        process.u32(1); process.u32(0)
        process.u32(0x2000); process.u32(0); process.u16(2); process.u48(0x7000_0000)  // the library's image
        process.u32(1); process.u32(0)
        process.u16(1); process.u16(0); process.u16(categoryOffset)
        process.align8()
        var subChunks = LEBytes()
        for size in chunkSetSizes {
            subChunks.u64(startContinuous); subChunks.u64(startContinuous + 1_000_000)
            subChunks.u32(UInt32(size)); subChunks.u32(0x100)
            subChunks.u32(1); subChunks.u16(0)
            subChunks.u32(1); subChunks.u16(0)
            subChunks.align8()
        }
        var body = LEBytes()
        let uuidBytes = uuids.count * 16
        body.u16(UInt16(uuidBytes))
        body.u16(UInt16(uuidBytes + strings.data.count))
        body.u16(1)
        body.u16(UInt16(uuidBytes + strings.data.count + process.data.count))
        body.u16(UInt16(chunkSetSizes.count))
        body.bytes([0, 0, 0, 0, 0, 0])
        body.u64(startContinuous)
        for uuid in uuids { body.uuid(uuid) }
        body.bytes(strings.data)
        body.bytes(process.data)
        body.bytes(subChunks.data)
        var file = LEBytes()
        file.chunk(tag: 0x600b, subTag: 0x11, body.data)
        return file.data
    }

    /// A chunk set holding `inner` (already chunked), LZ4-compressed or stored.
    func chunkSet(_ inner: [UInt8], compressed: Bool) throws -> [UInt8] {
        var body = LEBytes()
        if compressed {
            let block = try LZ4Tool.compressBlock(inner)
            body.bytes(Array("bv41".utf8)); body.u32(UInt32(inner.count)); body.u32(UInt32(block.count)); body.bytes(block)
        } else {
            body.bytes(Array("bv4-".utf8)); body.u32(UInt32(inner.count)); body.bytes(inner)
        }
        body.bytes(Array("bv4$".utf8))
        var file = LEBytes()
        file.chunk(tag: 0x600d, subTag: 0x11, body.data)
        return file.data
    }

    /// A firehose chunk of tracepoints (each: type, log type, flags, format, thread, delta, data)
    /// with `privateData` at its end.
    func firehose(baseTime: UInt64, tracepoints: [Tracepoint], privateData: [UInt8] = []) -> [UInt8] {
        var entries = LEBytes()
        for point in tracepoints {
            entries.u8(point.recordType); entries.u8(point.logType); entries.u16(point.flags); entries.u32(point.format)
            entries.u64(point.thread); entries.u48(point.delta); entries.u16(UInt16(point.data.count)); entries.bytes(point.data)
            entries.align8()
        }
        var body = LEBytes()
        body.u64(procID.first); body.u32(procID.second); body.u8(0); body.u8(0); body.u16(0)
        body.u16(UInt16(16 + entries.data.count))
        body.u16(privateData.isEmpty ? 0x1000 : UInt16(0x1000 - privateData.count))
        body.u16(0); body.u8(0); body.u8(1)
        body.u64(baseTime)
        body.bytes(entries.data)
        body.bytes(privateData)
        var chunk = LEBytes()
        chunk.chunk(tag: 0x6001, body.data)
        return chunk.data
    }

    struct Tracepoint {
        var recordType: UInt8 = 0x04
        var logType: UInt8 = 0
        var flags: UInt16
        var format: UInt32
        var thread: UInt64 = 0x1234
        var delta: UInt64
        var data: [UInt8]
    }

    func oversize(reference: UInt32, time: UInt64, items: [UInt8], privateData: [UInt8] = []) -> [UInt8] {
        var body = LEBytes()
        body.u64(procID.first); body.u32(procID.second); body.u8(0); body.bytes([0, 0, 0])
        body.u64(time); body.u32(reference); body.u16(UInt16(items.count)); body.u16(UInt16(privateData.count))
        body.bytes(items); body.bytes(privateData)
        var chunk = LEBytes()
        chunk.chunk(tag: 0x6002, body.data)
        return chunk.data
    }

    func stateDump(time: UInt64, activity: UInt64, title: String, text: String) -> [UInt8] {
        var body = LEBytes()
        body.u64(procID.first); body.u32(procID.second); body.u8(0); body.bytes([0, 0, 0])
        body.u64(time); body.u64(activity); body.uuid(libraryUUID)
        body.u32(3); body.u32(UInt32(text.utf8.count + 1))
        body.fixed("libsync", 64); body.fixed("SyncState", 64); body.fixed(title, 64)
        body.cString(text)
        var chunk = LEBytes()
        chunk.chunk(tag: 0x6003, body.data)
        return chunk.data
    }

    func simpleDump(time: UInt64, thread: UInt64, subsystem: String, message: String) -> [UInt8] {
        var body = LEBytes()
        body.u64(procID.first); body.u32(procID.second); body.u8(0); body.u8(0x10); body.u16(0)
        body.u64(time); body.u64(thread); body.u64(0x4000); body.uuid(libraryUUID); body.uuid(cacheUUID)
        body.u32(1); body.u32(UInt32(subsystem.utf8.count + 1)); body.u32(UInt32(message.utf8.count + 1))
        body.cString(subsystem); body.cString(message)
        var chunk = LEBytes()
        chunk.chunk(tag: 0x6004, body.data)
        return chunk.data
    }
}

/// Debian's `lz4` tool, for compressing test blocks and checking the decoder against it.
enum LZ4Tool {
    static let path = "/usr/bin/lz4"

    /// The raw LZ4 block of `data`: `lz4` writes a frame, whose one block is taken out.
    static func compressBlock(_ data: [UInt8]) throws -> [UInt8] {
        let frame = try run(["-c", "-q", "--no-frame-crc", "-BD", "-B7"], input: data)
        // Magic (4), FLG, BD, header checksum: 7 bytes; then block size, block, end mark.
        guard frame.count >= 11, frame[0..<4] == [0x04, 0x22, 0x4D, 0x18] else { throw ToolError("lz4 wrote no frame") }
        var reader = LittleEndianReader(frame, start: 7, context: "lz4 frame")
        let size = try reader.u32("block size")
        guard size & 0x8000_0000 == 0 else { throw ToolError("lz4 stored the block uncompressed: use compressible data") }
        return Array(try reader.take(Int(size), "block"))
    }

    /// Runs `lz4` on files rather than pipes: the tool's input and output go through the file
    /// system, so no reading thread races the child's exit.
    static func run(_ arguments: [String], input: [UInt8]) throws -> [UInt8] {
        let folder = try TemporaryDirectory("lz4")
        let source = folder.file("in"), target = folder.file("out")
        try Data(input).write(to: source)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments.filter { $0 != "-c" } + ["-f", source.path, target.path]
        try process.spawn()
        guard process.waitForExit(seconds: 600) else { throw ToolError("lz4 (pid \(process.processIdentifier)) was not reaped in 600 s") }
        guard process.terminationStatus == 0 else { throw ToolError("lz4 exited with \(process.terminationStatus)") }
        return [UInt8](try Data(contentsOf: target))
    }
}

struct ToolError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
