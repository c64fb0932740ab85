import Foundation
import Testing
@testable import DiagAppleLog
import TestSupport

/// Damaged and hostile tracev3 files, built here: refused by `diag show` with exit status 65
/// and a message naming the file and what was wrong, within bounded memory.
@Suite struct HostileTraceV3Tests {
    /// Runs `diag show FILE` with its address space capped at 400 MB: a reader that believed a
    /// declared size would need far more, and be killed instead of refusing.
    static func show(_ bytes: [UInt8]) throws -> ProcessOutput {
        let folder = try TemporaryDirectory("apple-hostile")
        let path = folder.file("0000000000000001.tracev3").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try run("/bin/sh", ["-c", "ulimit -v 400000; exec \"$0\" show \"$1\" --info --debug", BuiltProducts.path("diag"), path])
    }

    static func valid() throws -> [UInt8] {
        let archive = try SyntheticArchive()
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: archive.tracePath)))
    }

    static func chunk(_ tag: UInt32, _ body: [UInt8]) -> [UInt8] {
        var bytes = LEBytes()
        bytes.chunk(tag: tag, body)
        return bytes.data
    }

    @Test func truncatedAnywhereIsRefusedOrReadUpToTheCut() throws {
        let valid = try Self.valid()
        for cut in [10, 100, 230, 300, valid.count / 2, valid.count - 9] {
            let output = try Self.show(Array(valid.prefix(cut)))
            #expect(output.status == 65, "cut at \(cut) of \(valid.count): \(output.stderr) \(output.stdout.prefix(300))")
            #expect(output.stderr.contains("0000000000000001.tracev3"), "cut at \(cut): \(output.stderr)")
        }
    }

    @Test func chunkSizePastTheEnd() throws {
        var bytes = try Self.valid()
        // The catalog chunk's size (after the 224-byte header chunk, its tag and sub tag) claims 2^40 bytes.
        bytes.replaceSubrange(232..<240, with: [0, 0, 0, 0, 0, 1, 0, 0])
        let output = try Self.show(bytes)
        #expect(output.status == 65)
        #expect(output.stderr.contains("claims 1099511627776 bytes"))
    }

    @Test func decompressionBombIsRefusedBeforeAllocating() throws {
        let writer = TraceV3Writer()
        var body = LEBytes()
        body.bytes(Array("bv41".utf8)); body.u32(0xFFFF_FFF0); body.u32(4); body.bytes([0xF0, 0xFF, 0xFF, 0xFF])
        body.bytes(Array("bv4$".utf8))
        let file = writer.header() + writer.catalog(chunkSetSizes: [0]) + Self.chunk(0x600d, body.data)
        let output = try Self.show(file)
        #expect(output.status == 65)
        #expect(output.stderr.contains("accepted: up to 16777216"))
    }

    @Test func manyChunkSetsCannotExceedTheFileBudget() throws {
        var limits = AppleLogLimits()
        limits.maximumDecompressedBytesPerFile = 100_000
        let writer = TraceV3Writer()
        let zeros = [UInt8](repeating: 0, count: 60_000)
        var file = writer.header() + writer.catalog(chunkSetSizes: [60_000, 60_000])
        file += try writer.chunkSet(zeros, compressed: true) + writer.chunkSet(zeros, compressed: true)
        #expect(throws: AppleLogError.self) { _ = try TraceV3File(bytes: file, name: "budget", limits: limits) }
        #expect(throws: Never.self) { _ = try TraceV3File(bytes: file, name: "budget") }
    }

    @Test func chunkSetWithoutEndMarker() throws {
        let writer = TraceV3Writer()
        var body = LEBytes()
        body.bytes(Array("bv4-".utf8)); body.u32(4); body.bytes([0, 0, 0, 0])
        let output = try Self.show(writer.header() + writer.catalog(chunkSetSizes: [4]) + Self.chunk(0x600d, body.data))
        #expect(output.status == 65)
        #expect(output.stderr.contains("chunk set block marker"))
    }

    @Test func tracepointSizesThatDoNotFit() throws {
        let writer = TraceV3Writer()
        // A tracepoint whose data size runs past its firehose chunk.
        var tracepoint = TraceV3Writer.Tracepoint(flags: 0x0002, format: 0, delta: 1, data: [0, 0, 0, 0, 0, 0])
        tracepoint.data = [1, 2, 3, 4]
        var inner = writer.firehose(baseTime: 1, tracepoints: [tracepoint])
        inner[16 + 32 + 22] = 0xFF  // its data size (after the 32-byte firehose preamble): 0x7FFF
        inner[16 + 32 + 23] = 0x7F
        let output = try Self.show(writer.header() + writer.catalog(chunkSetSizes: [inner.count]) + (try writer.chunkSet(inner, compressed: false)))
        #expect(output.status == 65)
        #expect(output.stderr.contains("tracepoint data needs"))
    }

    @Test func catalogCountsThatDoNotFit() throws {
        let writer = TraceV3Writer()
        var catalog = writer.catalog(chunkSetSizes: [])
        catalog[16 + 4] = 0xFF  // process entry count 0x??FF
        catalog[16 + 5] = 0x7F
        let output = try Self.show(writer.header() + catalog)
        #expect(output.status == 65)
        #expect(output.stderr.contains("tracev3 file"))
    }

    @Test func zeroSizedChunksDoNotLoop() throws {
        let writer = TraceV3Writer()
        var file = writer.header()
        for _ in 0..<10_000 { file += Self.chunk(0x7777, []) }
        let read = try TraceV3File(bytes: file, name: "zeros")
        #expect(read.skippedChunks == 10_000)
    }

    @Test func notATraceV3FileIsNotTakenForOne() throws {
        #expect(!TraceV3File.looksLikeTraceV3(Array("Jul  1 09:00:55 host kernel[0]: message".utf8)))
        #expect(throws: AppleLogError.self) { _ = try TraceV3File(bytes: [0, 0x10, 0, 0], name: "short") }
    }

    @Test func damagedUUIDTextAndDSCFilesAreRefusedNotTrusted() {
        #expect(throws: AppleLogError.self) { _ = try UUIDTextFile(bytes: [0x99, 0x88, 0x77, 0x66, 2, 0, 0, 0, 1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x0F], name: "count") }
        let bytes = AppleFileWriter.uuidText(ranges: [(0, Array("a\0".utf8))], imagePath: "/x")
        var grown = bytes
        grown[20] = 0xFF  // the entry's size
        #expect(throws: AppleLogError.self) { _ = try UUIDTextFile(bytes: grown, name: "size") }
        var dsc = AppleFileWriter.sharedCache(version: 2, images: [(AppleUUID(high: 1, low: 1), "/l", 0, Array("s\0".utf8))])
        dsc[16 + 16] = 9  // the range's image index
        #expect(throws: AppleLogError.self) { _ = try SharedCacheStrings(bytes: dsc, name: "index") }
        #expect(throws: AppleLogError.self) { _ = try SharedCacheStrings(bytes: Array("hcsd".utf8) + [3, 0, 0, 0], name: "version") }
    }
}
