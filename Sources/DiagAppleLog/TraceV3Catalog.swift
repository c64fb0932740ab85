/// A catalog chunk (tag 0x600b): the processes that logged in the chunk sets after it, with
/// their images (UUIDs) and subsystem/category pairs. A new catalog replaces the previous one.
struct TraceV3Catalog: Sendable {
    struct Image: Sendable {
        var uuid: AppleUUID
        var loadAddress: UInt64
        var size: UInt32
    }

    struct Process: Sendable {
        var mainUUID: AppleUUID?
        var sharedCacheUUID: AppleUUID?
        var firstProcID: UInt64
        var secondProcID: UInt32
        var pid: UInt32
        var effectiveUserID: UInt32
        var images: [Image]
        /// Subsystem identifier → (subsystem, category).
        var subsystems: [UInt16: (subsystem: String, category: String)]
    }

    struct ProcessKey: Hashable, Sendable {
        var first: UInt64
        var second: UInt32
    }

    var uuids: [AppleUUID] = []
    var processes: [ProcessKey: Process] = [:]
    /// One per chunk set that follows: its uncompressed size.
    var chunkSetSizes: [UInt32] = []

    static let tag: UInt32 = 0x600b

    /// Reads the catalog's data (after its 16-byte preamble), `reader` limited to it.
    init(reading reader: inout LittleEndianReader) throws(AppleLogError) {
        let origin = reader.position
        let stringsOffset = Int(try reader.u16("catalog subsystem strings offset"))
        let processesOffset = Int(try reader.u16("catalog process entries offset"))
        let processCount = Int(try reader.u16("catalog process entry count"))
        let subChunksOffset = Int(try reader.u16("catalog sub chunks offset"))
        let subChunkCount = Int(try reader.u16("catalog sub chunk count"))
        try reader.skip(6, "catalog reserved bytes")
        _ = try reader.u64("catalog earliest firehose time")
        let uuidBase = reader.position
        guard stringsOffset % 16 == 0, stringsOffset <= processesOffset, processesOffset <= subChunksOffset,
              subChunksOffset <= reader.end - uuidBase
        else {
            throw reader.failure("catalog offsets (strings \(stringsOffset), processes \(processesOffset), sub chunks \(subChunksOffset)) are out of order or past its \(reader.end - origin) bytes")
        }
        for _ in 0..<(stringsOffset / 16) { uuids.append(try reader.uuid("catalog UUID")) }
        let stringsStart = uuidBase + stringsOffset, stringsEnd = uuidBase + processesOffset
        let bytes = reader.bytes
        func string(at offset: UInt16) -> String {
            let start = stringsStart + Int(offset)
            return start < stringsEnd ? bytes.cString(from: start, upTo: stringsEnd) ?? "" : ""
        }
        try reader.seek(to: stringsEnd, "catalog process entries")
        for _ in 0..<processCount {
            let process = try Self.readProcess(&reader, uuids: uuids, string: string)
            processes[ProcessKey(first: process.firstProcID, second: process.secondProcID)] = process
        }
        try reader.seek(to: uuidBase + subChunksOffset, "catalog sub chunks")
        for _ in 0..<subChunkCount {
            let start = reader.position
            _ = try reader.u64("sub chunk start time")
            _ = try reader.u64("sub chunk end time")
            chunkSetSizes.append(try reader.u32("sub chunk uncompressed size"))
            _ = try reader.u32("sub chunk compression algorithm")
            let indexCount = Int(try reader.u32("sub chunk index count"))
            try reader.skip(indexCount * 2, "sub chunk indexes")
            let offsetCount = Int(try reader.u32("sub chunk string offset count"))
            try reader.skip(offsetCount * 2, "sub chunk string offsets")
            reader.align(8, from: start)
        }
    }

    private static func readProcess(
        _ reader: inout LittleEndianReader, uuids: [AppleUUID], string: (UInt16) -> String
    ) throws(AppleLogError) -> Process {
        let start = reader.position
        _ = try reader.u16("process entry index")
        _ = try reader.u16("process entry unknown")
        let mainIndex = Int(try reader.u16("process main UUID index"))
        let dscIndex = Int(try reader.u16("process dsc UUID index"))
        let first = try reader.u64("process proc_id first number")
        let second = try reader.u32("process proc_id second number")
        let pid = try reader.u32("process identifier")
        let euid = try reader.u32("process effective user identifier")
        _ = try reader.u32("process unknown")
        let imageCount = Int(try reader.u32("process UUID entry count"))
        _ = try reader.u32("process unknown")
        try reader.need(imageCount * 16, "\(imageCount) process UUID entries")
        var images: [Image] = []
        for _ in 0..<imageCount {
            let size = try reader.u32("UUID entry size")
            _ = try reader.u32("UUID entry unknown")
            let index = Int(try reader.u16("UUID entry index"))
            let load = try reader.unsigned(6, "UUID entry load address")
            guard index < uuids.count else { throw reader.failure("UUID entry index \(index), the catalog has \(uuids.count) UUIDs") }
            images.append(Image(uuid: uuids[index], loadAddress: load, size: size))
        }
        let subsystemCount = Int(try reader.u32("process subsystem count"))
        _ = try reader.u32("process unknown")
        try reader.need(subsystemCount * 6, "\(subsystemCount) process subsystems")
        var subsystems: [UInt16: (String, String)] = [:]
        for _ in 0..<subsystemCount {
            let identifier = try reader.u16("subsystem identifier")
            let subsystem = string(try reader.u16("subsystem offset"))
            let category = string(try reader.u16("category offset"))
            subsystems[identifier] = (subsystem, category)
        }
        reader.align(8, from: start)
        return Process(
            mainUUID: mainIndex < uuids.count ? uuids[mainIndex] : nil,
            sharedCacheUUID: dscIndex < uuids.count ? uuids[dscIndex] : nil,
            firstProcID: first, secondProcID: second, pid: pid, effectiveUserID: euid,
            images: images, subsystems: subsystems)
    }
}
