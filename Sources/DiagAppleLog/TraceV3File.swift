/// A tracev3 file read whole: its header, its events in file order, and the oversize data its
/// tracepoints refer to (which may come after them in the file).
public struct TraceV3File: Sendable {
    public let header: TraceV3Header
    var events: [TraceEvent] = []
    var oversize: [OversizeKey: [FirehoseValue]] = [:]
    /// Chunks of a tag this reader does not know, skipped by their size.
    public private(set) var skippedChunks = 0

    /// The first 16 bytes of every tracev3 file: the header chunk's tag, sub tag and size.
    public static func looksLikeTraceV3(_ prefix: some Collection<UInt8>) -> Bool {
        let bytes = Array(prefix.prefix(16))
        return bytes.count == 16 && bytes[0..<4] == [0x00, 0x10, 0x00, 0x00] && bytes[8..<12] == [0xD0, 0x00, 0x00, 0x00]
            && bytes[12..<16] == [0, 0, 0, 0]
    }

    /// Reads `bytes`, the whole file named `name` (for errors). Refuses, naming the offset, a
    /// file that is not a tracev3 file, a chunk whose size runs past the end, a chunk set that
    /// decompresses to more than the limits allow, and any structure that does not fit.
    public init(bytes: [UInt8], name: String, limits: AppleLogLimits = AppleLogLimits()) throws(AppleLogError) {
        let context = "tracev3 file \(name)"
        guard Self.looksLikeTraceV3(bytes) else {
            throw AppleLogError("\(context): not a tracev3 file (it must start with the header chunk: tag 0x1000, size 208)")
        }
        var reader = LittleEndianReader(bytes, context: context)
        try reader.skip(16, "header chunk preamble")
        var headerData = LittleEndianReader(bytes, start: 16, end: 16 + 208, context: context + ": header")
        try reader.need(208, "header chunk")
        header = try TraceV3Header(reading: &headerData)
        try reader.skip(208, "header chunk")
        var catalog: TraceV3Catalog?
        var decompressed = 0
        while reader.remaining >= 16 {
            let chunkStart = reader.position
            let tag = try reader.u32("chunk tag")
            _ = try reader.u32("chunk sub tag")
            let size64 = try reader.u64("chunk size")
            guard size64 <= UInt64(reader.remaining) else {
                throw reader.failure("chunk 0x\(String(tag, radix: 16)) at \(chunkStart) claims \(size64) bytes, only \(reader.remaining) remain")
            }
            let size = Int(size64)
            var chunk = LittleEndianReader(bytes, start: reader.position, end: reader.position + size, context: context)
            switch tag {
            case TraceV3Catalog.tag:
                catalog = try TraceV3Catalog(reading: &chunk)
            case 0x600d:
                guard let catalog else { throw chunk.failure("chunk set before any catalog") }
                let data = try Self.decompressChunkSet(&chunk, limits: limits, decompressed: &decompressed)
                try readInnerChunks(data, catalog: catalog, context: "\(context): chunk set at offset \(chunkStart)")
            case TraceV3Chunks.firehoseTag, TraceV3Chunks.oversizeTag, TraceV3Chunks.stateDumpTag, TraceV3Chunks.simpleDumpTag:
                // Uncompressed chunks outside a chunk set: read as if inside one.
                try readInnerChunks(Array(bytes[chunkStart..<(reader.position + size)]), catalog: catalog ?? TraceV3Catalog(), context: "\(context): chunk at offset \(chunkStart)")
            default:
                skippedChunks += 1
            }
            try reader.skip(size, "chunk data")
            reader.align(8)
        }
        try Self.refuseTrailingBytes(reader)
    }

    /// Fewer than 16 bytes left that are not zero padding: a chunk cut short.
    static func refuseTrailingBytes(_ reader: LittleEndianReader) throws(AppleLogError) {
        guard reader.remaining > 0, reader.bytes[reader.position..<reader.end].contains(where: { $0 != 0 }) else { return }
        throw reader.failure("\(reader.remaining) bytes are left, too few for a chunk (16-byte preamble): the file is cut short")
    }

    /// `bv41` (LZ4), `bv4-` (stored) blocks up to `bv4$`.
    static func decompressChunkSet(
        _ reader: inout LittleEndianReader, limits: AppleLogLimits, decompressed: inout Int
    ) throws(AppleLogError) -> [UInt8] {
        var output: [UInt8] = []
        while true {
            let magic = try reader.u32("chunk set block marker")
            switch magic {
            case 0x3134_7662:  // "bv41"
                let size = Int(try reader.u32("bv41 uncompressed size"))
                let compressed = Int(try reader.u32("bv41 compressed size"))
                try checkSize(size, output.count, limits, decompressed, &reader)
                let input = try reader.take(compressed, "bv41 compressed data")
                try LZ4Block.decompress(input, expectedSize: size, into: &output, context: "\(reader.context): chunk set at offset \(reader.base + reader.position - compressed - 12)")
                decompressed += size
            case 0x2D34_7662:  // "bv4-"
                let size = Int(try reader.u32("bv4- size"))
                try checkSize(size, output.count, limits, decompressed, &reader)
                output.append(contentsOf: try reader.take(size, "bv4- stored data"))
                decompressed += size
            case 0x2434_7662:  // "bv4$"
                return output
            default:
                throw reader.failure("chunk set block marker 0x\(String(magic, radix: 16)) (accepted: bv41, bv4-, bv4$)")
            }
        }
    }

    private static func checkSize(
        _ size: Int, _ have: Int, _ limits: AppleLogLimits, _ decompressed: Int, _ reader: inout LittleEndianReader
    ) throws(AppleLogError) {
        guard have + size <= limits.maximumChunkSetBytes else {
            throw reader.failure("chunk set would decompress to \(have + size) bytes (accepted: up to \(limits.maximumChunkSetBytes))")
        }
        guard decompressed + size <= limits.maximumDecompressedBytesPerFile else {
            throw reader.failure("the file's chunk sets would decompress to over \(limits.maximumDecompressedBytesPerFile) bytes")
        }
    }

    private mutating func readInnerChunks(_ data: [UInt8], catalog: TraceV3Catalog, context: String) throws(AppleLogError) {
        var reader = LittleEndianReader(data, context: context)
        while reader.remaining >= 16 {
            let tag = try reader.u32("chunk tag")
            _ = try reader.u32("chunk sub tag")
            let size64 = try reader.u64("chunk size")
            guard size64 <= UInt64(reader.remaining) else {
                throw reader.failure("chunk 0x\(String(tag, radix: 16)) claims \(size64) bytes, only \(reader.remaining) remain in the chunk set")
            }
            let size = Int(size64)
            var chunk = LittleEndianReader(data, start: reader.position, end: reader.position + size, context: context)
            switch tag {
            case TraceV3Chunks.firehoseTag:
                try TraceV3Chunks.readFirehose(&chunk, catalog: catalog, into: &events)
            case TraceV3Chunks.oversizeTag:
                let (key, values) = try TraceV3Chunks.readOversize(&chunk)
                oversize[key] = values
            case TraceV3Chunks.stateDumpTag:
                let (key, dump) = try TraceV3Chunks.readStateDump(&chunk)
                events.append(TraceEvent(kind: .stateDump(dump), continuousTime: dump.continuousTime, processKey: key, process: catalog.processes[key]))
            case TraceV3Chunks.simpleDumpTag:
                let (key, dump) = try TraceV3Chunks.readSimpleDump(&chunk)
                events.append(TraceEvent(kind: .simpleDump(dump), continuousTime: dump.continuousTime, processKey: key, process: catalog.processes[key]))
            default:
                skippedChunks += 1
            }
            try reader.skip(size, "chunk data")
            reader.align(8)
        }
        try Self.refuseTrailingBytes(reader)
    }
}

extension TraceV3Catalog {
    /// No catalog: events keep their proc_id but no process details.
    init() {}
}
