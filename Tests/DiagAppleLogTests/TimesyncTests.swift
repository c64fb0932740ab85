import Testing
@testable import DiagAppleLog

/// Mach continuous time to wall clock, per boot, with Intel's and Apple silicon's timebases.
@Suite struct TimesyncTests {
    static let boot = AppleUUID(high: 0xAA, low: 0xBB)

    static func database(numerator: UInt32, denominator: UInt32) throws -> TimesyncDatabase {
        var database = TimesyncDatabase()
        try database.add(bytes: AppleFileWriter.timesync(
            boot: boot, numerator: numerator, denominator: denominator, bootTime: 1_000_000_000_000_000_000,
            syncs: [(1_000, 2_000_000_000_000_000_000), (5_000, 3_000_000_000_000_000_000)]), name: "t")
        return database
    }

    @Test func appleSiliconTimebase() throws {
        let database = try Self.database(numerator: 125, denominator: 3)
        // Before the first sync record: from the boot record (continuous time 0).
        #expect(database.wallClock(continuousTime: 30, boot: Self.boot) == Int64(1_000_000_000_000_000_000 + 1_250))
        // From the last sync record at or before the time: 24 ticks × 125/3 = 1000 ns.
        #expect(database.wallClock(continuousTime: 1_024, boot: Self.boot) == Int64(2_000_000_000_000_000_000 + 1_000))
        #expect(database.wallClock(continuousTime: 5_000, boot: Self.boot) == Int64(3_000_000_000_000_000_000))
        #expect(database.wallClock(continuousTime: 5_003, boot: Self.boot) == Int64(3_000_000_000_000_000_000 + 125))
    }

    @Test func intelTimebase() throws {
        let database = try Self.database(numerator: 1, denominator: 1)
        #expect(database.wallClock(continuousTime: 4_999, boot: Self.boot) == Int64(2_000_000_000_000_000_000 + 3_999))
    }

    @Test func unknownBootHasNoTime() throws {
        let database = try Self.database(numerator: 1, denominator: 1)
        #expect(database.wallClock(continuousTime: 10, boot: AppleUUID(high: 1, low: 1)) == nil)
    }

    @Test func hugeTimesDoNotTrap() {
        let value = TimesyncDatabase.convert(.max, from: .init(continuousTime: 0, wallClock: 0), numerator: .max, denominator: 1)
        #expect(value == Int64.max)
    }

    @Test func refusesUnknownRecordsAndZeroTimebase() {
        #expect(throws: AppleLogError.self) {
            var database = TimesyncDatabase()
            try database.add(bytes: [0x41, 0x42, 0x10, 0x00] + [UInt8](repeating: 0, count: 12), name: "junk")
        }
        #expect(throws: AppleLogError.self) {
            var database = TimesyncDatabase()
            try database.add(bytes: AppleFileWriter.timesync(boot: Self.boot, numerator: 0, denominator: 1, bootTime: 0, syncs: []), name: "zero")
        }
        #expect(throws: AppleLogError.self) {
            var database = TimesyncDatabase()
            try database.add(bytes: Array(AppleFileWriter.timesync(boot: Self.boot, numerator: 1, denominator: 1, bootTime: 0, syncs: [(1, 1)]).dropLast(5)), name: "cut")
        }
    }
}
