import DiagModel
import Foundation
import Testing
@testable import DiagAppleLog
import TestSupport

/// Apple's own files (Tests/Fixtures/apple-unified-logging, from libyal/dtformats' test data),
/// checked against what dtformats' tests state about them.
@Suite struct RealSampleTests {
    static let folder = BuiltProducts.fixturesDirectory.appendingPathComponent("apple-unified-logging")
    static func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(relative)))
    }

    @Test func headerOfThe717KBFile() throws {
        let file = try TraceV3File(bytes: try Self.bytes("0000000000000f85.tracev3"), name: "f85")
        #expect(file.header.timebaseNumerator == 125)
        #expect(file.header.timebaseDenominator == 3)
        #expect(file.header.timeZoneOffsetMinutes == 300)
        #expect(file.header.buildVersion == "19D52")
        #expect(file.header.hardwareModel == "J96AP")
        #expect(file.header.bootUUID.description == "A6EBC8E3-0A1C-40E8-93B9-DA3A7F671D19")
        #expect(file.header.timeZonePath == "/var/db/timezone/zoneinfo/America/Toronto")
        // The oversize chunk dtformats reads in the eighth chunk set: proc_id 449241@1345727, reference 82.
        let oversize = try #require(file.oversize[OversizeKey(first: 449241, second: 1345727, reference: 82)])
        #expect(!oversize.isEmpty)
        #expect(file.skippedChunks == 0)
    }

    @Test func everyRecordOfThe717KBFileHasItsFields() throws {
        let archive = try AppleLogArchive(path: Self.folder.appendingPathComponent("0000000000000f85.tracev3").path)
        let records = try archive.records(ofFile: archive.groups[0][0])
        #expect(records.count == 8654)
        #expect(records.map(\.timestamp) == records.map(\.timestamp).sorted())
        // Every firehose record has a process and thread; state dumps have an activity.
        #expect(records.allSatisfy { $0.processID != nil && $0.processID! > 0 })
        #expect(records.filter { $0.eventType == .logEvent }.allSatisfy { $0.threadID != nil })
        #expect(records.filter { $0.eventType == .stateEvent }.count == 496)
        let levels = Dictionary(grouping: records.filter { $0.eventType == .logEvent }, by: \.messageType).mapValues(\.count)
        #expect(levels == [.default: 7187, .info: 368, .debug: 485, .error: 92, .fault: 26])
        #expect(Set(records.compactMap(\.subsystem)).count == 32)
        #expect(Set(records.compactMap(\.processID)).count == 65)
        #expect(records.filter { $0.activityIdentifier != nil }.count == 3727)
        // Its boot is not in the timesync file beside it: dates come from the header's clock.
        let first = try #require(records.first), last = try #require(records.last)
        #expect(Timestamp.format(nanoseconds: first.timestamp).hasPrefix("2022-04-1"))
        #expect(last.timestamp - first.timestamp < 7 * 86_400 * 1_000_000_000)
        // Messages whose strings are missing still carry their values and say what is missing.
        let unresolved = records.filter { $0.formatString == nil && $0.eventType == .logEvent }
        #expect(!unresolved.isEmpty)
        #expect(unresolved.allSatisfy { $0.eventMessage.hasPrefix("<decode: ") })
        #expect(records.contains { $0.eventMessage.contains("Cache manager initialized") || $0.eventMessage.contains("com.apple.security.cloudkeychainproxy3") })
    }

    @Test func timesyncFixtureHoldsItsBoots() throws {
        var database = TimesyncDatabase()
        try database.add(bytes: try Self.bytes("timesync/0000000000000002.timesync"), name: "timesync")
        #expect(database.boots.count == 5)
        let boot = try #require(database.boots[AppleUUID(high: 0xFE7D_A8C6_4F59_4893, low: 0x8607_EBC4_5B77_5C80)])
        #expect(!boot.syncs.isEmpty)
        #expect(boot.syncs.map(\.continuousTime) == boot.syncs.map(\.continuousTime).sorted())
        #expect(database.boots[AppleUUID(high: 0xA6EB_C8E3_0A1C_40E8, low: 0x93B9_DA3A_7F67_1D19)] == nil)
    }

    @Test func uuidtextLookups() throws {
        let text = try UUIDTextFile(bytes: try Self.bytes("uuidtext/00/7EF56328D53A78B59CCCE3E3189F57"), name: "00/7EF5")
        #expect(text.string(at: 0x5591) == "system.install.apple-software")
        #expect(text.string(at: 0xFFFF_FFFF) == nil)
        let empty = try UUIDTextFile(bytes: try Self.bytes("uuidtext/22/0D3C2953A33917B333DD8366AC25F2"), name: "22/0D3C")
        #expect(empty.imagePath == "/usr/libexec/lsd")
        #expect(empty.string(at: 0) == nil)
    }

    @Test func sharedCacheVersion1() throws {
        let dsc = try SharedCacheStrings(bytes: try Self.bytes("uuidtext/dsc/dsc-version1"), name: "dsc-version1")
        #expect(dsc.majorVersion == 1)
        #expect(dsc.ranges.count == 252)
        #expect(dsc.images.count == 196)
        #expect(dsc.ranges[64].start == 1_756_712 && dsc.ranges[64].size == 3834)
        #expect(dsc.images[42].textOffset == 9_191_424 && dsc.images[42].textSize == 223_732)
        #expect(dsc.images[42].path == "/System/Library/Extensions/AppleH8ADBE0.kext/AppleH8ADBE0")
        let found = try #require(dsc.string(at: 1_756_712))
        #expect(found.image.path == dsc.images[dsc.ranges[64].imageIndex].path)
    }

    @Test func sharedCacheVersion2() throws {
        let dsc = try SharedCacheStrings(bytes: try Self.bytes("uuidtext/dsc/dsc-version2"), name: "dsc-version2")
        #expect(dsc.majorVersion == 2)
        #expect(dsc.ranges.count == 263)
        #expect(dsc.images.count == 200)
        // dtformats' test calls the data offset of version 2 ranges their "range offset".
        #expect(dsc.ranges[10].dataOffset == 64272 && dsc.ranges[10].size == 39755 && dsc.ranges[10].start == 194_710)
        #expect(dsc.images[197].textOffset == 26_816_512 && dsc.images[197].textSize == 43736)
        #expect(dsc.images[197].path == "/System/Library/Extensions/AppleD2207PMU.kext/AppleD2207PMU")
        let found = try #require(dsc.string(at: 194_710 + 1))
        #expect(found.image.path == dsc.images[dsc.ranges[10].imageIndex].path)
    }

    @Test func writtenSharedCacheFilesOfBothVersions() throws {
        for version: UInt16 in [1, 2] {
            let bytes = AppleFileWriter.sharedCache(version: version, images: [
                (AppleUUID(high: 1, low: 2), "/usr/lib/libA.dylib", 0x1000, Array("alpha %d\0beta\0".utf8)),
                (AppleUUID(high: 3, low: 4), "/usr/lib/libB.dylib", 0x9000, Array("gamma %s\0".utf8)),
            ])
            let dsc = try SharedCacheStrings(bytes: bytes, name: "v\(version)")
            #expect(dsc.string(at: 0x1000)?.format == "alpha %d")
            #expect(dsc.string(at: 0x1009)?.format == "beta")
            #expect(dsc.string(at: 0x9000)?.format == "gamma %s")
            #expect(dsc.string(at: 0x9000)?.image.path == "/usr/lib/libB.dylib")
            #expect(dsc.string(at: 0x9000)?.image.uuid == AppleUUID(high: 3, low: 4))
            #expect(dsc.string(at: 0x5000) == nil)
        }
    }

    @Test func diagShowReadsTheFileBesideItsTimesync() throws {
        let output = try run(BuiltProducts.path("diag"), [
            "show", Self.folder.appendingPathComponent("0000000000000f85.tracev3").path,
            "--info", "--debug", "--style", "ndjson", "--predicate", "messageType == fault",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.split(separator: "\n").count == 26)
    }
}
