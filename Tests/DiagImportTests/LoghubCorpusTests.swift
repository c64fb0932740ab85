import DiagImport
import DiagModel
import Foundation
import Testing
import TestSupport

/// The four real logs of `Tests/Fixtures/loghub` (vendored, with their licence): every line must become a record.
@Suite struct LoghubCorpusTests {
    private func read(_ name: String, year: Int = 2017) throws -> (format: ImportFormat?, records: [LogRecord], issues: [ImportIssue]) {
        let path = try #require(BuiltProducts.corpusFile(name), "the loghub corpus is missing")
        let reader = try LogFileReader(path: path, options: ImportOptions(year: year, timeZone: TimeZone(identifier: "UTC")!))
        let (records, issues) = try reader.readAll()
        return (reader.format, records, issues)
    }

    @Test func macSystemLog() throws {
        let (format, records, issues) = try read("Mac_2k.log")
        #expect(format == .syslog)
        #expect(issues.isEmpty, "\(issues.prefix(3))")
        #expect(records.count == 2000)
        #expect(records.filter { $0.process == "kernel" }.count == 775)
        let first = try #require(records.first)
        #expect(first.process == "kernel" && first.processID == 0)
        #expect(first.timestamp == Timestamp.parse("2017-07-01 09:00:55Z"))
        #expect(first.metadata?["hostname"] == "calvisitor-10-105-160-95")
        #expect(first.eventMessage.hasPrefix("IOThunderboltSwitch<0>(0x0)::listenerCallback"))
        #expect(records[1].process == "com.apple.CDScheduler" && records[1].processID == 43)
        #expect(records.contains { $0.process == "Microsoft Word" && $0.processID == 14463 })
        #expect(records.contains { $0.process == "BezelServices 255.10" && $0.processID == 94 })
        let sandbox = try #require(records.first { $0.process == "sandboxd" && $0.metadata?["context"] != nil })
        #expect(sandbox.processID == 129)
        #expect(sandbox.metadata?["context"] == "[31211]")
        #expect(records.allSatisfy { $0.process != nil && $0.processID != nil })
    }

    @Test func linuxMessages() throws {
        let (format, records, issues) = try read("Linux_2k.log", year: 2005)
        #expect(format == .syslog)
        #expect(issues.isEmpty, "\(issues.prefix(3))")
        #expect(records.count == 2000)
        #expect(records[0].process == "sshd(pam_unix)" && records[0].processID == 19939)
        #expect(records[0].eventMessage.hasPrefix("authentication failure; logname= uid=0"))
        let logrotate = try #require(records.first { $0.process == "logrotate" })
        #expect(logrotate.processID == nil && logrotate.eventMessage == "ALERT exited abnormally with [1]")
        #expect(records.filter { $0.process == "kernel" }.count == 76)
        #expect(records.contains { $0.process == "syslogd" && $0.eventMessage == "1.4.1: restart." })
        #expect(records.allSatisfy { $0.process != nil })
    }

    @Test func openSSHAuthLog() throws {
        let (format, records, issues) = try read("OpenSSH_2k.log")
        #expect(format == .syslog)
        #expect(issues.isEmpty, "\(issues.prefix(3))")
        #expect(records.count == 2000)
        #expect(records.allSatisfy { $0.process == "sshd" && $0.processID != nil })
        #expect(records[0].processID == 24200)
        #expect(records[0].timestamp == Timestamp.parse("2017-12-10 06:55:46Z"))
    }

    @Test func androidLogcat() throws {
        let (format, records, issues) = try read("Android_2k.log")
        #expect(format == .logcat)
        #expect(issues.isEmpty, "\(issues.prefix(3))")
        #expect(records.count == 2000)
        let first = try #require(records.first)
        #expect(first.processID == 1702 && first.threadID == 2395)
        #expect(first.messageType == .debug && first.sender == "WindowManager" && first.category == "WindowManager")
        #expect(first.timestamp == Timestamp.parse("2017-03-17 16:13:38.811Z"))
        #expect(first.eventMessage.hasPrefix("printFreezingDisplayLogsopening app wtoken"))
        #expect(records.filter { $0.messageType == .default }.count == 170)
        #expect(records.filter { $0.messageType == .error }.count == 3)
        #expect(records.filter { $0.messageType == .debug }.count == 650 + 257)
    }
}
