import DiagImport
import DiagModel
import Foundation
import Testing
import TestSupport

@Suite struct TextFormatImportTests {
    @Test func syslogTagsPidsAndContext() throws {
        let text = """
            Nov 29 09:40:01 builder transport[4242]: Uploaded batch 3 of 7 to iCloud.com.example.SyncDemo
            Nov 29 09:40:02 builder Sync Core[77] (com.example.sync.export): Export started for store 5A3C
            Nov 29 09:40:03 builder kernel: usb 1-1: new device
            Nov  9 09:40:04 builder scheduler[12]:
            Nov 29 09:40:05.250 builder --- last message repeated 2 times ---
            <11>Nov 29 09:40:06 builder notifier[5]: push failed
            """
        let imported = try importText(text, name: "syslog")
        #expect(imported.format == .syslog)
        #expect(imported.issues.isEmpty, "\(imported.issues)")
        let records = imported.records
        #expect(records.count == 6)
        #expect(records[0].process == "transport" && records[0].processID == 4242)
        #expect(records[0].eventMessage == "Uploaded batch 3 of 7 to iCloud.com.example.SyncDemo")
        #expect(records[0].timestamp == nanoseconds("2026-11-29 09:40:01Z"))
        #expect(records[0].metadata == ["hostname": "builder"])
        #expect(records[1].process == "Sync Core" && records[1].processID == 77 && records[1].metadata?["context"] == "com.example.sync.export")
        #expect(records[2].process == "kernel" && records[2].processID == nil && records[2].eventMessage == "usb 1-1: new device")
        #expect(records[3].process == "scheduler" && records[3].eventMessage == "" && records[3].timestamp == nanoseconds("2026-11-09 09:40:04Z"))
        #expect(records[4].process == nil && records[4].eventMessage == "--- last message repeated 2 times ---")
        #expect(records[4].timestamp == nanoseconds("2026-11-29 09:40:05.25Z"))
        #expect(records[5].messageType == .error && records[5].process == "notifier")
    }

    @Test func rsyslogHighPrecisionTimes() throws {
        let text = """
            2026-11-29T09:40:01.123456+01:00 builder transport[4242]: Uploaded batch 3 of 7
            2026-11-29T08:40:02Z builder kernel: usb 1-1: new device
            2026-11-29T25:40:02Z builder kernel: no such hour
            """
        let imported = try importText(text, name: "syslog")
        #expect(imported.format == .syslog)
        #expect(imported.records.map(\.timestamp) == [nanoseconds("2026-11-29 08:40:01.123456Z"), nanoseconds("2026-11-29 08:40:02Z")])
        #expect(imported.records.map(\.process) == ["transport", "kernel"])
        #expect(imported.records[0].processID == 4242 && imported.records[0].metadata?["hostname"] == "builder")
        #expect(imported.issues.map(\.line) == [3])
    }

    @Test func syslogContinuationLinesJoinTheirRecord() throws {
        let text = "Nov 29 09:40:01 host app[1]: first\n\tsecond\n  third\nNov 29 09:40:02 host app[1]: next\n"
        let imported = try importText(text)
        #expect(imported.issues.isEmpty)
        #expect(imported.records.map(\.eventMessage) == ["first\n\tsecond\n  third", "next"])
    }

    @Test func syslogYearRollsOverAfterDecember() throws {
        let text = "Dec 31 23:59:59 host app[1]: old year\nJan  1 00:00:01 host app[1]: new year\n"
        let imported = try importText(text)
        #expect(imported.records.map(\.timestamp) == [nanoseconds("2026-12-31 23:59:59Z"), nanoseconds("2027-01-01 00:00:01Z")])
    }

    @Test func syslogReadsWallTimeInTheGivenZone() throws {
        let reader = try LogFileReader(
            bytes: Array("Jan  1 12:00:00 host app[1]: winter\nJul  1 12:00:00 host app[1]: summer\n".utf8),
            options: ImportOptions(year: 2026, timeZone: TimeZone(identifier: "Europe/Paris")!))
        let records = try reader.readAll().records
        #expect(records.map(\.timestamp) == [nanoseconds("2026-01-01 11:00:00Z"), nanoseconds("2026-07-01 10:00:00Z")])
    }

    @Test func syslogRefusesWhatItCannotRead() throws {
        let text = "Feb 29 10:00:00 host app[1]: not in 2026\nrandom words\nNov 29 09:40:01 host app[1]: fine\n\u{1}binary\n"
        let imported = try importText(text, name: "messages")
        #expect(imported.records.map(\.eventMessage) == ["fine"])
        #expect(imported.issues.map(\.description) == [
            "messages:1:1: no such date: day 29 of month 2 in 2026",
            "messages:2:1: not a syslog line: expected `Mmm dd HH:MM:SS host process[pid]: message` (or an indented continuation line), found \"random words\"",
            "messages:4:1: not a syslog line: expected `Mmm dd HH:MM:SS host process[pid]: message` (or an indented continuation line), found \"·binary\"",
        ])
    }

    @Test func syslogKeepsLinesWithInvalidUTF8AndSaysSo() throws {
        var bytes = Array("Nov 29 09:40:01 host app[1]: caf".utf8)
        bytes += [0xE9, 0x0A]
        bytes += Array("Nov 29 09:40:02 host app[1]: ok\n".utf8)
        let imported = try importBytes(bytes, name: "latin1.log")
        #expect(imported.records.map(\.eventMessage) == ["caf\u{FFFD}", "ok"])
        #expect(imported.issues.map(\.description) == ["latin1.log:1:33: invalid UTF-8, replaced with U+FFFD; the record is kept"])
    }

    @Test func logcatThreadtime() throws {
        let text = """
            --------- beginning of main
            11-29 09:40:01.123  1702  2395 V SyncCore: verbose detail
            11-29 09:40:01.124  1702  2395 D SyncCore: debug detail
            11-29 09:40:01.125  1702  2396 I Transport: batch sent
            11-29 09:40:01.126  1702  2396 W Transport: retrying in 2 s
            11-29 09:40:01.127   88    88 E Notifier : push failed: timeout
            11-29 09:40:01.128   88    88 F Scheduler: invariant broken
            2025-11-29 09:40:01.129   88    88 A Scheduler: assert
            11-29 09:40:01.130   88    88 I NoMessage:
            not logcat
            11-29 09:40:01.131   88    88 X Tag: unknown level
            """
        let imported = try importText(text, name: "logcat.txt")
        #expect(imported.format == .logcat)
        let records = imported.records
        #expect(records.map(\.messageType) == [.debug, .debug, .info, .default, .error, .fault, .fault, .info])
        #expect(records[0].processID == 1702 && records[0].threadID == 2395 && records[0].sender == "SyncCore" && records[0].category == "SyncCore")
        #expect(records[0].timestamp == nanoseconds("2026-11-29 09:40:01.123Z"))
        #expect(records[4].sender == "Notifier" && records[4].eventMessage == "push failed: timeout")
        #expect(records[6].timestamp == nanoseconds("2025-11-29 09:40:01.129Z"))
        #expect(records[7].sender == "NoMessage" && records[7].eventMessage == "")
        #expect(imported.issues.map(\.description) == [
            "logcat.txt:10:1: not a logcat threadtime line: expected `MM-DD HH:MM:SS.mmm  pid  tid L Tag: message`, found \"not logcat\"",
            "logcat.txt:11:1: not a logcat threadtime line: expected `MM-DD HH:MM:SS.mmm  pid  tid L Tag: message`, found \"11-29 09:40:01.131   88    88 X Tag: unknown level\"",
        ])
    }
}
