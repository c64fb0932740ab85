/// The header chunk that opens every tracev3 file (tag 0x1000): the clock of the boot the file
/// belongs to, and the boot's identifier, which picks the timesync records.
public struct TraceV3Header: Sendable, Equatable {
    public var timebaseNumerator: UInt32
    public var timebaseDenominator: UInt32
    /// Mach continuous time at `wallClockSeconds`.
    public var continuousTime: UInt64
    /// Seconds since the Unix epoch when the file was started.
    public var wallClockSeconds: Int64
    public var timeZoneOffsetMinutes: Int32
    public var daylightSavings: Bool
    public var bootUUID: AppleUUID
    public var logdProcessID: UInt32
    public var buildVersion: String
    public var hardwareModel: String
    public var timeZonePath: String

    static let tag: UInt32 = 0x1000

    /// Reads the header chunk's data (after its 16-byte preamble).
    init(reading reader: inout LittleEndianReader) throws(AppleLogError) {
        timebaseNumerator = try reader.u32("timebase numerator")
        timebaseDenominator = try reader.u32("timebase denominator")
        guard timebaseNumerator != 0, timebaseDenominator != 0 else {
            throw reader.failure("timebase \(timebaseNumerator)/\(timebaseDenominator) (both must be non-zero)")
        }
        continuousTime = try reader.u64("start continuous time")
        wallClockSeconds = Int64(Int32(bitPattern: try reader.u32("wall clock seconds")))
        _ = try reader.u32("unknown")
        _ = try reader.u32("unknown")
        timeZoneOffsetMinutes = Int32(bitPattern: try reader.u32("time zone offset"))
        daylightSavings = try reader.u32("daylight savings flag") != 0
        _ = try reader.u32("flags")
        bootUUID = AppleUUID(high: 0, low: 0)
        logdProcessID = 0
        buildVersion = ""
        hardwareModel = ""
        timeZonePath = ""
        // Sub chunks: tag, size, data; unknown tags are skipped by their size.
        while reader.remaining >= 8 {
            let tag = try reader.u32("header sub chunk tag")
            let size = Int(try reader.u32("header sub chunk size"))
            try reader.need(size, "header sub chunk 0x\(String(tag, radix: 16))")
            var sub = LittleEndianReader(reader.bytes, base: reader.base, start: reader.position, end: reader.position + size, context: reader.context)
            switch tag {
            case 0x6100:
                continuousTime = try sub.u64("continuous time sub chunk")
            case 0x6101:
                _ = try sub.u64("system information unknowns")
                buildVersion = reader.bytes.cString(from: sub.position, upTo: min(sub.position + 16, sub.end)) ?? ""
                hardwareModel = reader.bytes.cString(from: min(sub.position + 16, sub.end), upTo: min(sub.position + 48, sub.end)) ?? ""
            case 0x6102:
                bootUUID = try sub.uuid("boot UUID")
                logdProcessID = try sub.u32("logd process identifier")
            case 0x6103:
                timeZonePath = reader.bytes.cString(from: sub.position, upTo: sub.end) ?? ""
            default:
                break
            }
            try reader.skip(size, "header sub chunk")
        }
    }

    /// Nanoseconds per continuous time unit, as a fraction.
    var nanosecondsPerTick: (numerator: UInt64, denominator: UInt64) {
        (UInt64(timebaseNumerator), UInt64(timebaseDenominator))
    }
}
