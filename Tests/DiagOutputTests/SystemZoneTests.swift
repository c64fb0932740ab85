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
}
