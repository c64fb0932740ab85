import DiagImport
import DiagModel
import Foundation
import Testing

/// The files of `samples/logs/` that the README shows: each is detected and read whole.
@Suite struct SampleLogsTests {
    private static func samplePath(_ name: String, filePath: String = #filePath) -> String {
        URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("samples/logs").appendingPathComponent(name).path
    }

    @Test(arguments: [
        ("sync.ndjson", ImportFormat.ndjson, 40),
        ("apple-log-show.ndjson", .ndjson, 30),
        ("apple-log-show.json", .appleJSON, 20),
        ("syslog.log", .syslog, 41),
        ("journal.json", .journalJSON, 25),
        ("logcat.txt", .logcat, 35),
    ])
    func readsEverySample(name: String, format: ImportFormat, count: Int) throws {
        let reader = try LogFileReader(path: Self.samplePath(name), options: ImportOptions(year: 2026, timeZone: utc))
        let (records, issues) = try reader.readAll()
        #expect(reader.format == format)
        #expect(issues.isEmpty, "\(issues)")
        #expect(records.count == count)
        #expect(records.allSatisfy { !$0.eventMessage.isEmpty && ($0.process ?? $0.sender) != nil })
        #expect(records.filter { $0.processID == nil }.allSatisfy { $0.process == "kernel" })
        #expect(zip(records, records.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp })
        #expect(records.contains { $0.eventMessage.contains("iCloud.com.example.SyncDemo") })
    }

    @Test func appleSamplesMatchOurs() throws {
        let ours = try LogFileReader(path: Self.samplePath("sync.ndjson")).readAll().records
        let apple = try LogFileReader(path: Self.samplePath("apple-log-show.ndjson")).readAll().records
        let array = try LogFileReader(path: Self.samplePath("apple-log-show.json")).readAll().records
        // Apple's timestamps stop at microseconds.
        #expect(apple.map(\.timestamp) == ours.prefix(30).map { $0.timestamp / 1000 * 1000 })
        #expect(apple.map(\.eventMessage) == ours.prefix(30).map(\.eventMessage))
        #expect(Array(apple.suffix(20)) == array)
        #expect(apple.first?.process == "scheduler" && apple.contains { $0.process == "sync-core" && $0.sender == "CoreData" && $0.processImagePath?.hasPrefix("/Applications/SyncDemo.app/") == true })
    }

    @Test func journalSampleKeepsBinaryMessagesAndFields() throws {
        let records = try LogFileReader(path: Self.samplePath("journal.json")).readAll().records
        #expect(records[7].eventMessage == "Delivering push payload: \u{1B}[1mtopic\u{1B}[0m com.example.SyncDemo")
        #expect(records.allSatisfy { $0.metadata?["hostname"] == "sync-host" && $0.metadata?["CODE_FILE"] != nil })
        #expect(records.contains { $0.metadata?["SYNC_STORE"] != nil })
    }
}
