/// The chunks a chunk set holds, read into the events they describe.
enum TraceV3Chunks {
    static let firehoseTag: UInt32 = 0x6001
    static let oversizeTag: UInt32 = 0x6002
    static let stateDumpTag: UInt32 = 0x6003
    static let simpleDumpTag: UInt32 = 0x6004

    /// Reads one firehose chunk's data: the preamble, then tracepoints up to the public size.
    static func readFirehose(
        _ reader: inout LittleEndianReader, catalog: TraceV3Catalog, into events: inout [TraceEvent]
    ) throws(AppleLogError) {
        let chunkStart = reader.position, chunkEnd = reader.end
        let key = TraceV3Catalog.ProcessKey(first: try reader.u64("firehose proc_id first"), second: try reader.u32("firehose proc_id second"))
        _ = try reader.u8("firehose time to live")
        _ = try reader.u8("firehose collapsed flag")
        try reader.skip(2, "firehose reserved")
        let publicSize = Int(try reader.u16("firehose public data size"))
        let privateVirtualOffset = Int(try reader.u16("firehose private data virtual offset"))
        _ = try reader.u16("firehose unknown")
        _ = try reader.u8("firehose stream type")
        _ = try reader.u8("firehose unknown")
        let baseTime = try reader.u64("firehose base continuous time")
        guard publicSize >= 16, chunkStart + 16 + publicSize <= chunkEnd else {
            throw reader.failure("firehose public data size \(publicSize) (accepted: 16 to \(chunkEnd - chunkStart - 16))")
        }
        var privateArea: ArraySlice<UInt8>?
        if privateVirtualOffset < 0x1000 {
            let size = 0x1000 - privateVirtualOffset
            let publicEnd = chunkStart + 16 + publicSize
            guard size <= chunkEnd - publicEnd else {
                throw reader.failure("firehose private data of \(size) bytes (virtual offset \(privateVirtualOffset)) overlaps its public data")
            }
            privateArea = reader.bytes[(chunkEnd - size)..<chunkEnd]
        }
        let process = catalog.processes[key]
        var entries = LittleEndianReader(reader.bytes, base: reader.base, start: reader.position, end: chunkStart + 16 + publicSize, context: reader.context)
        let entriesStart = entries.position
        while entries.remaining >= 24 {
            let typeByte = try entries.u8("tracepoint record type")
            guard typeByte != 0 else { break }  // the rest is unused space
            let logType = try entries.u8("tracepoint log type")
            let flags = try entries.u16("tracepoint flags")
            let format = try entries.u32("tracepoint format reference")
            let thread = try entries.u64("tracepoint thread identifier")
            let delta = try entries.unsigned(6, "tracepoint time delta")
            let size = Int(try entries.u16("tracepoint data size"))
            try entries.need(size, "tracepoint data")
            guard let recordType = FirehoseTracepoint.RecordType(rawValue: typeByte) else {
                throw entries.failure("tracepoint record type 0x\(String(typeByte, radix: 16)) (accepted: 0x2 activity, 0x3 trace, 0x4 log, 0x6 signpost, 0x7 loss)")
            }
            var data = LittleEndianReader(entries.bytes, base: entries.base, start: entries.position, end: entries.position + size, context: entries.context)
            let (time, overflow) = baseTime.addingReportingOverflow(delta)
            let tracepoint = try FirehoseTracepoint(
                recordType: recordType, logType: logType, flags: flags, formatReference: format, threadID: thread,
                continuousTime: overflow ? baseTime : time, data: &data,
                privateArea: privateArea, privateVirtualOffset: privateVirtualOffset)
            events.append(TraceEvent(kind: .firehose(tracepoint), continuousTime: tracepoint.continuousTime, processKey: key, process: process))
            try entries.skip(size, "tracepoint data")
            entries.align(8, from: entriesStart)
        }
    }

    /// Reads an oversize chunk: the arguments of a tracepoint too large for its firehose chunk.
    static func readOversize(_ reader: inout LittleEndianReader) throws(AppleLogError) -> (key: OversizeKey, values: [FirehoseValue]) {
        let first = try reader.u64("oversize proc_id first")
        let second = try reader.u32("oversize proc_id second")
        _ = try reader.u8("oversize time to live")
        try reader.skip(3, "oversize reserved")
        _ = try reader.u64("oversize continuous time")
        let reference = try reader.u32("oversize data reference")
        let publicSize = Int(try reader.u16("oversize public data size"))
        let privateSize = Int(try reader.u16("oversize private data size"))
        try reader.need(publicSize + privateSize, "oversize data")
        let publicStart = reader.position
        let privateData = reader.bytes[(publicStart + publicSize)..<(publicStart + publicSize + privateSize)]
        var items = LittleEndianReader(reader.bytes, base: reader.base, start: publicStart, end: publicStart + publicSize, context: reader.context)
        let (values, _) = try FirehoseValue.readItems(&items, privateData: privateSize > 0 ? privateData : nil, hasBacktrace: false)
        return (OversizeKey(first: first, second: second, reference: reference), values)
    }

    /// Reads a state dump chunk: a named snapshot of some state (a plist, a protobuf or custom data).
    static func readStateDump(_ reader: inout LittleEndianReader) throws(AppleLogError) -> (key: TraceV3Catalog.ProcessKey, dump: StateDump) {
        let key = TraceV3Catalog.ProcessKey(first: try reader.u64("state dump proc_id first"), second: try reader.u32("state dump proc_id second"))
        _ = try reader.u8("state dump time to live")
        try reader.skip(3, "state dump reserved")
        let time = try reader.u64("state dump continuous time")
        let activity = try reader.u64("state dump activity identifier")
        let sender = try reader.uuid("state dump sender image UUID")
        let dataType = try reader.u32("state dump data type")
        let size = Int(try reader.u32("state dump data size"))
        let fieldsStart = reader.position
        try reader.skip(192, "state dump decoder and title")
        let decoderLibrary = reader.bytes.cString(from: fieldsStart, upTo: fieldsStart + 64) ?? ""
        let decoderType = reader.bytes.cString(from: fieldsStart + 64, upTo: fieldsStart + 128) ?? ""
        let title = reader.bytes.cString(from: fieldsStart + 128, upTo: fieldsStart + 192) ?? ""
        let data = Array(try reader.take(size, "state dump data of \(size) bytes"))
        return (key, StateDump(
            continuousTime: time, activityID: activity & 0xffff_ffff, senderUUID: sender, dataType: dataType,
            decoderLibrary: dataType == 3 ? decoderLibrary : "", decoderType: dataType == 3 ? decoderType : "",
            title: title, data: data))
    }

    /// Reads a simple dump chunk: a message already composed, with its subsystem.
    static func readSimpleDump(_ reader: inout LittleEndianReader) throws(AppleLogError) -> (key: TraceV3Catalog.ProcessKey, dump: SimpleDump) {
        let key = TraceV3Catalog.ProcessKey(first: try reader.u64("simple dump proc_id first"), second: try reader.u32("simple dump proc_id second"))
        _ = try reader.u8("simple dump time to live")
        let logType = try reader.u8("simple dump log type")
        try reader.skip(2, "simple dump reserved")
        let time = try reader.u64("simple dump continuous time")
        let thread = try reader.u64("simple dump thread identifier")
        let offset = try reader.u64("simple dump load address")
        let sender = try reader.uuid("simple dump sender image UUID")
        _ = try reader.uuid("simple dump dsc UUID")
        _ = try reader.u32("simple dump unknown")
        let subsystemSize = Int(try reader.u32("simple dump subsystem size"))
        let messageSize = Int(try reader.u32("simple dump message size"))
        let subsystemStart = reader.position
        try reader.skip(subsystemSize, "simple dump subsystem of \(subsystemSize) bytes")
        let messageStart = reader.position
        try reader.skip(messageSize, "simple dump message of \(messageSize) bytes")
        return (key, SimpleDump(
            continuousTime: time, logType: logType, threadID: thread, senderOffset: offset, senderUUID: sender,
            subsystem: reader.bytes.cString(from: subsystemStart, upTo: messageStart) ?? "",
            message: reader.bytes.cString(from: messageStart, upTo: messageStart + messageSize) ?? ""))
    }
}

struct OversizeKey: Hashable, Sendable {
    var first: UInt64
    var second: UInt32
    var reference: UInt32
}

struct StateDump: Sendable {
    var continuousTime: UInt64
    var activityID: UInt64
    var senderUUID: AppleUUID
    var dataType: UInt32
    var decoderLibrary: String
    var decoderType: String
    var title: String
    var data: [UInt8]
}

struct SimpleDump: Sendable {
    var continuousTime: UInt64
    var logType: UInt8
    var threadID: UInt64
    var senderOffset: UInt64
    var senderUUID: AppleUUID
    var subsystem: String
    var message: String
}

/// One event of a tracev3 file before it becomes a record: what it is, when, and which process.
struct TraceEvent: Sendable {
    enum Kind: Sendable {
        case firehose(FirehoseTracepoint)
        case stateDump(StateDump)
        case simpleDump(SimpleDump)
    }

    var kind: Kind
    var continuousTime: UInt64
    var processKey: TraceV3Catalog.ProcessKey
    var process: TraceV3Catalog.Process?
}
