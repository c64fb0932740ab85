import DiagOutput
import Foundation
import Testing
import TestSupport

/// The default zone is the system's, as `log` and journalctl show times: what `/etc/localtime`
/// links to, else `/etc/timezone`'s name, else UTC; `$TZ` still wins.
@Suite struct SystemZoneTests {
    @Test func aLinkedLocaltimeNamesTheZone() throws {
        let folder = try TemporaryDirectory()
        let link = folder.file("localtime").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/usr/share/zoneinfo/Europe/Paris")
        #expect(SystemZone.name(localtime: link) == "Europe/Paris")
        #expect(DisplayZone.fromEnvironment([:], localtime: link).name == "Europe/Paris")
        #expect(DisplayZone.fromEnvironment(["TZ": "Asia/Tokyo"], localtime: link).name == "Asia/Tokyo")
        #expect(DisplayZone.fromEnvironment(["TZ": ""], localtime: link).name == "UTC")
    }

    @Test func aCopiedLocaltimeIsNamedByTheTimezoneFileBesideIt() throws {
        let folder = try TemporaryDirectory()
        let copy = try folder.write("localtime", "TZif2 (a copy, no name in it)")
        #expect(SystemZone.name(localtime: copy) == nil)
        try folder.write("timezone", "America/New_York\n")
        #expect(DisplayZone.fromEnvironment([:], localtime: copy).name == "America/New_York")
        try folder.write("timezone", "Nowhere/Land\n")
        #expect(DisplayZone.fromEnvironment([:], localtime: copy).name == "UTC")
    }

    /// The database's names of UTC itself are shown at offset 0 under their own name without ICU
    /// (`DisplayZone.isUTCName`); each agrees with Foundation's zone of that name, and a zone a
    /// name away from them (`Etc/GMT+1`, `GMT+1`) is still looked up.
    @Test func utcNamesAreUTCWithoutALookup() throws {
        let names = ["Etc/UTC", "Etc/UCT", "Etc/Universal", "Etc/Zulu", "Etc/GMT", "Etc/GMT0", "Etc/GMT+0", "Etc/GMT-0",
                     "Etc/Greenwich", "UTC", "UCT", "Universal", "Zulu", "GMT", "GMT0", "GMT+0", "GMT-0", "Greenwich"]
        let instants = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_782_000_000), Date(timeIntervalSince1970: 1_798_000_000)]
        for name in names {
            #expect(DisplayZone.isUTCName(name), "\(name)")
            let zone = try #require(TimeZone(identifier: name), "Foundation knows \(name)")
            #expect(instants.allSatisfy { zone.secondsFromGMT(for: $0) == 0 }, "\(name)")
            var display = try #require(DisplayZone(parsing: name))
            #expect(display.offsetSeconds(at: 1_782_000_000_000_000_000) == 0)
        }
        #expect(DisplayZone(parsing: "Etc/UTC")?.name == "Etc/UTC")
        for name in ["Etc/GMT+1", "etc/utc", "Europe/London", "UTC0", "Etc/UTC/"] { #expect(!DisplayZone.isUTCName(name), "\(name)") }
        var east = try #require(DisplayZone(parsing: "Etc/GMT-3"))
        #expect(east.offsetSeconds(at: 0) == 3 * 3600)

        let folder = try TemporaryDirectory()
        let link = folder.file("localtime").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/usr/share/zoneinfo/Etc/UTC")
        #expect(SystemZone.name(localtime: link) == "Etc/UTC")
        var system = DisplayZone.fromEnvironment([:], localtime: link)
        #expect(system.name == "Etc/UTC")
        #expect(system.offsetSeconds(at: 1_782_000_000_000_000_000) == 0)
    }
}
