import DiagImport
import DiagModel
import Foundation
import Testing
import TestSupport

/// Where a reader's bytes come from: pipes read in small pieces, and the year of a file.
@Suite struct ReaderSourceTests {
    @Test func readsAPipeFedInSmallPieces() throws {
        let pipe = Spawning.pipe()
        var text = "--------- beginning of main\n"
        for index in 0..<3000 {
            text += "11-29 09:40:\(String(format: "%02d", index % 60)).\(String(format: "%03d", index % 1000))  1702  2395 I Transport: batch \(index) sent to iCloud.com.example.SyncDemo\n"
        }
        let bytes = Array(text.utf8)
        let writer = Thread {
            var offset = 0
            while offset < bytes.count {
                let end = min(offset + 777, bytes.count)
                pipe.fileHandleForWriting.write(Data(bytes[offset..<end]))
                offset = end
            }
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        let reader = try LogFileReader(
            fileDescriptor: pipe.fileHandleForReading.fileDescriptor, name: "<pipe>",
            options: ImportOptions(year: 2026, timeZone: utc))
        #expect(reader.format == .logcat)
        let (records, issues) = try reader.readAll()
        #expect(issues.isEmpty)
        #expect(records.count == 3000)
        #expect(records.last?.eventMessage == "batch 2999 sent to iCloud.com.example.SyncDemo")
    }

    @Test func theYearDefaultsToTheFileModificationYear() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("old.log", "Mar  3 10:00:00 host app[1]: from an old file\n")
        let modified = Date(timeIntervalSince1970: 1_561_939_200)  // 2019-07-01
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
        let records = try LogFileReader(path: path, options: ImportOptions(timeZone: utc)).readAll().records
        #expect(records.map(\.timestamp) == [nanoseconds("2019-03-03 10:00:00Z")])
        let given = try LogFileReader(path: path, options: ImportOptions(year: 2024, timeZone: utc)).readAll().records
        #expect(given.map(\.timestamp) == [nanoseconds("2024-03-03 10:00:00Z")])
    }

    @Test func aLogOfDecemberModifiedInJanuaryStartsTheYearBefore() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("syslog.1", "Dec 31 23:59:00 host app[1]: old\nJan  1 00:01:00 host app[1]: new\n")
        let modified = Date(timeIntervalSince1970: 1_767_225_900)  // 2026-01-01 00:05 UTC
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
        let records = try LogFileReader(path: path, options: ImportOptions(timeZone: utc)).readAll().records
        #expect(records.map(\.timestamp) == [nanoseconds("2025-12-31 23:59:00Z"), nanoseconds("2026-01-01 00:01:00Z")])
        let given = try LogFileReader(path: path, options: ImportOptions(year: 2026, timeZone: utc)).readAll().records
        #expect(given.map(\.timestamp) == [nanoseconds("2026-12-31 23:59:00Z"), nanoseconds("2027-01-01 00:01:00Z")])
    }

    @Test func aGivenFormatSkipsDetection() throws {
        let imported = try importText("hello\nNov 29 09:40:01 host app[1]: ok\n", name: "forced.log", format: .syslog)
        #expect(imported.format == .syslog)
        #expect(imported.records.map(\.eventMessage) == ["ok"])
        #expect(imported.issues.map(\.line) == [1])
        // Detection looks past a stray first line too, and reports it the same way.
        let detected = try importText("hello\nNov 29 09:40:01 host app[1]: ok\n")
        #expect(detected.format == .syslog)
        #expect(detected.issues.map(\.line) == [1])
        #expect(throws: ImportError.self) { _ = try importText("hello\nworld\n") }
    }

    @Test func aCallbackErrorStopsReading() throws {
        struct Enough: Error {}
        let reader = try LogFileReader(bytes: Array(String(repeating: #"{"timestamp":1,"eventMessage":"m"}"# + "\n", count: 10).utf8))
        var seen = 0
        #expect(throws: Enough.self) {
            try reader.forEach(record: { _ in seen += 1; if seen == 3 { throw Enough() } }, issue: { _ in })
        }
        #expect(seen == 3)
    }
}
