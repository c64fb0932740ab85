/// One firehose tracepoint (log, activity, trace, signpost or loss), as read from a firehose
/// chunk: the fields that locate its format string and the values of its arguments.
struct FirehoseTracepoint: Sendable {
    enum RecordType: UInt8, Sendable {
        case activity = 0x02, trace = 0x03, log = 0x04, signpost = 0x06, loss = 0x07
    }

    /// Where the format string is kept (flags & 0x0e).
    enum StringsFile: UInt16, Sendable {
        case mainExecutable = 0x2, sharedCache = 0x4, absolute = 0x8, uuidRelative = 0xa, largeSharedCache = 0xc
    }

    var recordType: RecordType
    var logType: UInt8
    var flags: UInt16
    var formatReference: UInt32
    var threadID: UInt64
    var continuousTime: UInt64

    var currentActivity: UInt64?
    var otherActivity: UInt64?
    var newActivity: UInt64?
    var uniquePID: UInt64?
    var programCounter: UInt32 = 0
    var largeOffset: UInt16?
    var loadAddressHigh: UInt16?
    var imageUUID: AppleUUID?
    var largeSharedCache: UInt16?
    var subsystemID: UInt16?
    var oversizeReference: UInt16?
    var signpostID: UInt64?
    var nameReference: UInt64?
    var values: [FirehoseValue] = []
    var backtrace: Backtrace?
    var loss: (start: UInt64, end: UInt64, count: UInt64)?

    var stringsFile: StringsFile? { StringsFile(rawValue: flags & 0x0e) }
    var hasPrivateData: Bool { flags & 0x0100 != 0 }

    /// The format string's offset in its uuidtext or dsc file.
    var formatOffset: UInt64 {
        let high = largeSharedCache ?? largeOffset
        if let high { return UInt64(high) << 31 | UInt64(formatReference & 0x7fff_ffff) }
        return UInt64(formatReference & 0x7fff_ffff)
    }

    /// A "dynamic" format: the whole message is one `%s` argument.
    var isDynamic: Bool { formatReference & 0x8000_0000 != 0 && largeOffset == nil && largeSharedCache == nil }

    /// Apple's `traceID`: format reference, flags, log type and record type in one number.
    var traceID: UInt64 {
        UInt64(formatReference) << 32 | UInt64(flags) << 16 | UInt64(logType) << 8 | UInt64(recordType.rawValue)
    }

    /// Reads the tracepoint's data (`reader` limited to its `data size` bytes).
    /// `privateArea` is the chunk's private data and `privateVirtualOffset` its virtual start.
    init(
        recordType: RecordType, logType: UInt8, flags: UInt16, formatReference: UInt32, threadID: UInt64,
        continuousTime: UInt64, data reader: inout LittleEndianReader,
        privateArea: ArraySlice<UInt8>?, privateVirtualOffset: Int
    ) throws(AppleLogError) {
        self.recordType = recordType
        self.logType = logType
        self.flags = flags
        self.formatReference = formatReference
        self.threadID = threadID
        self.continuousTime = continuousTime
        switch recordType {
        case .loss:
            loss = (try reader.u64("loss start"), try reader.u64("loss end"), try reader.u64("loss count"))
            return
        case .trace:
            try readTrace(&reader)
            return
        case .activity:
            if flags & 0x0001 != 0 { currentActivity = try activityID(&reader, "current activity identifier") }
            if flags & 0x0010 != 0 { uniquePID = try reader.u64("unique process identifier") }
            if flags & 0x0200 != 0 { otherActivity = try activityID(&reader, "other activity identifier") }
            if logType != 0x03 { newActivity = try activityID(&reader, "new activity identifier") }
            programCounter = try reader.u32("program counter")
            try readStringsLocation(&reader)
            return
        case .log, .signpost:
            break
        }
        if flags & 0x0001 != 0 { currentActivity = try activityID(&reader, "current activity identifier") }
        var privateRange: (offset: Int, size: Int)?
        if hasPrivateData {
            privateRange = (Int(try reader.u16("private data range offset")), Int(try reader.u16("private data range size")))
        }
        programCounter = try reader.u32("program counter")
        try readStringsLocation(&reader)
        if flags & 0x0200 != 0 { subsystemID = try reader.u16("subsystem identifier") }
        if recordType == .signpost { signpostID = try reader.u64("signpost identifier") }
        if flags & 0x0400 != 0 { _ = try reader.u8("time to live") }
        if flags & 0x0800 != 0 { oversizeReference = try reader.u16("oversize data reference") }
        if recordType == .signpost, flags & 0x8000 != 0 {
            let low = UInt64(try reader.u32("signpost name reference"))
            if flags & 0x0020 != 0 {
                nameReference = UInt64(try reader.u16("signpost name reference upper bits")) << 31 | low & 0x7fff_ffff
            } else {
                nameReference = low & 0x7fff_ffff
            }
        }
        var privateData: ArraySlice<UInt8>?
        if let privateRange, let privateArea {
            let start = privateRange.offset - privateVirtualOffset
            if start >= 0, start + privateRange.size <= privateArea.count {
                privateData = privateArea[(privateArea.startIndex + start)..<(privateArea.startIndex + start + privateRange.size)]
            }
        }
        (values, backtrace) = try FirehoseValue.readItems(&reader, privateData: privateData, hasBacktrace: flags & 0x1000 != 0)
    }

    /// An activity identifier: 32 bits and a 32-bit sentinel (0x80000000) Apple drops.
    private func activityID(_ reader: inout LittleEndianReader, _ what: String) throws(AppleLogError) -> UInt64 {
        let identifier = UInt64(try reader.u32(what))
        try reader.skip(4, "\(what) sentinel")
        return identifier
    }

    private mutating func readStringsLocation(_ reader: inout LittleEndianReader) throws(AppleLogError) {
        if flags & 0x0020 != 0 { largeOffset = try reader.u16("large offset data") }
        switch stringsFile {
        case .absolute: loadAddressHigh = try reader.u16("load address upper bits")
        case .uuidRelative: imageUUID = try reader.uuid("image UUID")
        case .largeSharedCache: largeSharedCache = try reader.u16("large shared cache data")
        case .mainExecutable, .sharedCache: break
        case nil:
            throw reader.failure("strings file type 0x\(String(flags & 0x0e, radix: 16)) in flags 0x\(String(flags, radix: 16)) (accepted: 0x2, 0x4, 0x8, 0xa, 0xc)")
        }
    }

    /// A trace tracepoint: program counter, then values front to back, their sizes, their count.
    private mutating func readTrace(_ reader: inout LittleEndianReader) throws(AppleLogError) {
        programCounter = try reader.u32("program counter")
        guard reader.remaining > 0 else { return }
        let rest = try reader.take(reader.remaining, "trace values")
        let count = Int(rest[rest.endIndex - 1])
        guard count <= rest.count - 1 else { throw reader.failure("trace tracepoint claims \(count) values in \(rest.count) bytes") }
        let sizes = rest[(rest.endIndex - 1 - count)..<(rest.endIndex - 1)]
        var position = rest.startIndex
        for size in sizes {
            guard position + Int(size) <= rest.endIndex - 1 - count else { throw reader.failure("trace value of \(size) bytes runs past its data") }
            values.append(.scalar(FirehoseValue.littleEndian(rest[position..<(position + Int(size))]), byteCount: Int(size)))
            position += Int(size)
        }
    }
}
