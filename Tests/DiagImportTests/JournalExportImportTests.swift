import DiagImport
import DiagModel
import Foundation
import Testing
import TestSupport

/// `journalctl -o export` as an import format: the same records as `journalctl -o json`, binary
/// fields read by their length, hostile lengths and names refused with the line.
@Suite struct JournalExportImportTests {
    private static var fixture: String {
        BuiltProducts.fixturesDirectory.appendingPathComponent("journal/journal.export").path
    }

    private static var jsonTwin: String {
        BuiltProducts.fixturesDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("samples/logs/journal.json").path
    }

    @Test func theExportOfTheJSONSampleGivesTheSameRecords() throws {
        let export = try LogFileReader(path: Self.fixture)
        #expect(export.format == .journalExport)
        let (records, issues) = try export.readAll()
        #expect(issues.isEmpty)
        let (json, _) = try LogFileReader(path: Self.jsonTwin).readAll()
        #expect(json.count == 25)
        #expect(Array(records.prefix(25)) == json)
    }

    @Test func binarySafeFieldsKeepNewlinesAndBytesThatAreNotUTF8() throws {
        let (records, _) = try LogFileReader(path: Self.fixture).readAll()
        let (json, _) = try LogFileReader(path: Self.jsonTwin).readAll()
        #expect(records.count == 27)
        #expect(records[25].eventMessage == "upload failed:\n  HTTP 503\n  retry in 2 s")
        #expect(records[25].messageType == .error)
        #expect(records[25].process == json.last?.process)
        #expect(records[25].processID == json.last?.processID)
        #expect(records[26].eventMessage == "token \u{FFFD}\u{FFFD} not UTF-8")
    }

    @Test func diagImportTakesTheExportIntoAStore() throws {
        let directory = try TemporaryDirectory("journal-export")
        let store = directory.file("store").path
        let imported = try run(BuiltProducts.path("diag"), ["import", "--store", store, Self.fixture])
        #expect(imported.status == 0, "\(imported.stderr)")
        let shown = try run(BuiltProducts.path("diag"), ["show", store, "--debug", "--style", "ndjson", "--predicate", "messageType == error"])
        #expect(shown.status == 0)
        #expect(shown.stdout.contains("upload failed:\\n  HTTP 503\\n  retry in 2 s"))
    }

    @Test func aLengthPastTheLimitStopsReadingWithTheFieldNamed() throws {
        var bytes = Array("__CURSOR=s=1\n__REALTIME_TIMESTAMP=1795945200000000\nMESSAGE=first\n\n__CURSOR=s=2\nMESSAGE\n".utf8)
        bytes += withUnsafeBytes(of: UInt64(1 << 40).littleEndian) { Array($0) }
        bytes += Array("short\n".utf8)
        let (format, records, issues) = try importBytes(bytes, maxLineLength: 1 << 20)
        #expect(format == .journalExport)
        #expect(records.map(\.eventMessage) == ["first"])
        #expect(issues.map(\.reason) == ["binary field MESSAGE announces 1099511627776 bytes; the limit is 1048576 bytes; reading stopped"])
        #expect(issues.first?.line == 6)
    }

    @Test func truncatedBinaryFieldsAndBadNamesAreRefused() throws {
        let truncated = Array("__CURSOR=s=1\n__REALTIME_TIMESTAMP=1795945200000000\nMESSAGE\n\u{5}\0\0\0\0\0\0\0ab".utf8)
        let (_, none, issues) = try importBytes(truncated)
        #expect(none.isEmpty)
        #expect(issues.map(\.reason) == ["binary field MESSAGE ends before its 5 bytes; reading stopped"])
        let badName = Array("__CURSOR=s=1\nmessage=lower case\n\n".utf8)
        let (_, _, nameIssues) = try importBytes(badName, format: .journalExport)
        #expect(nameIssues.first?.reason.hasPrefix("field name 'message' is not 1…64 of A-Z, 0-9 and _") == true)
        let missingTime = Array("__CURSOR=s=1\nMESSAGE=no time\n\n".utf8)
        let (_, _, timeIssues) = try importBytes(missingTime)
        #expect(timeIssues.first?.reason.contains("__REALTIME_TIMESTAMP") == true)
    }
}
