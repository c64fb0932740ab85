/// The timesync files of a log archive (`timesync/*.timesync`): for each boot, its timebase and
/// pairs of (Mach continuous time, wall clock time), so that a tracev3 event's continuous time
/// becomes a date the way Apple's `log` makes it.
public struct TimesyncDatabase: Sendable {
    public struct Sync: Sendable, Equatable {
        public var continuousTime: UInt64
        public var wallClock: Int64
    }

    public struct Boot: Sendable, Equatable {
        public var bootUUID: AppleUUID
        public var timebaseNumerator: UInt32
        public var timebaseDenominator: UInt32
        /// Nanoseconds since the epoch at continuous time 0.
        public var bootTime: Int64
        /// Sorted by continuous time.
        public var syncs: [Sync]
    }

    public private(set) var boots: [AppleUUID: Boot] = [:]

    public init() {}

    /// Adds the records of one timesync file.
    public mutating func add(bytes: [UInt8], name: String) throws(AppleLogError) {
        var reader = LittleEndianReader(bytes, context: "timesync file \(name)")
        var current: Boot?
        while reader.remaining > 0 {
            let signature = try reader.u16("timesync record signature")
            let size = Int(try reader.u16("timesync record size"))
            switch (signature, size) {
            case (0xBBB0, 48):
                if let current { merge(current) }
                _ = try reader.u32("boot record unknown")
                let uuid = try reader.uuid("boot UUID")
                let numerator = try reader.u32("boot timebase numerator")
                let denominator = try reader.u32("boot timebase denominator")
                guard numerator != 0, denominator != 0 else {
                    throw reader.failure("boot record timebase \(numerator)/\(denominator) (both must be non-zero)")
                }
                let bootTime = Int64(bitPattern: try reader.u64("boot time"))
                try reader.skip(8, "boot time zone")
                current = Boot(bootUUID: uuid, timebaseNumerator: numerator, timebaseDenominator: denominator, bootTime: bootTime, syncs: [])
            case (0x7354, 32):
                guard current != nil else { throw reader.failure("sync record before any boot record") }
                _ = try reader.u32("sync record unknown")
                let continuous = try reader.u64("sync kernel time")
                let wall = Int64(bitPattern: try reader.u64("sync wall clock time"))
                try reader.skip(8, "sync time zone")
                current!.syncs.append(Sync(continuousTime: continuous, wallClock: wall))
            default:
                throw reader.failure("timesync record signature 0x\(String(signature, radix: 16)) of \(size) bytes (accepted: boot record 0xbbb0 of 48 bytes, sync record 'Ts' of 32 bytes)")
            }
        }
        if let current { merge(current) }
    }

    private mutating func merge(_ boot: Boot) {
        var merged = boots[boot.bootUUID] ?? Boot(bootUUID: boot.bootUUID, timebaseNumerator: boot.timebaseNumerator, timebaseDenominator: boot.timebaseDenominator, bootTime: boot.bootTime, syncs: [])
        merged.syncs.append(contentsOf: boot.syncs)
        merged.syncs.sort { $0.continuousTime < $1.continuousTime }
        boots[boot.bootUUID] = merged
    }

    /// Nanoseconds since the epoch for a continuous time of the boot, from the last sync record
    /// at or before it (the boot record's time when there is none); nil for an unknown boot.
    public func wallClock(continuousTime: UInt64, boot uuid: AppleUUID) -> Int64? {
        guard let boot = boots[uuid] else { return nil }
        var low = 0, high = boot.syncs.count
        while low < high {
            let middle = (low + high) / 2
            if boot.syncs[middle].continuousTime <= continuousTime { low = middle + 1 } else { high = middle }
        }
        let base = low == 0 ? Sync(continuousTime: 0, wallClock: boot.bootTime) : boot.syncs[low - 1]
        return Self.convert(continuousTime, from: base, numerator: boot.timebaseNumerator, denominator: boot.timebaseDenominator)
    }

    /// `base.wallClock + (time - base.continuousTime) × numerator / denominator`, rounded down,
    /// also for times before the base; never traps on overflow.
    static func convert(_ time: UInt64, from base: Sync, numerator: UInt32, denominator: UInt32) -> Int64 {
        let forward = time >= base.continuousTime
        let ticks = forward ? time - base.continuousTime : base.continuousTime - time
        let product = ticks.multipliedFullWidth(by: UInt64(numerator))
        let (quotient, _) = UInt64(denominator).dividingFullWidth(product.high < UInt64(denominator) ? product : (0, UInt64.max))
        let delta = Int64(clamping: quotient)
        return forward ? base.wallClock.addingReportingOverflow(delta).partialValue : base.wallClock.subtractingReportingOverflow(delta).partialValue
    }
}
