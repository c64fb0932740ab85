import DiagModel
import Foundation
import Glibc
import Testing
import TestSupport

/// `diag stream --predicate` reads a date without a zone in the user's zone, as `diag show`
/// does (README, "Time, the same everywhere"), although diagd, which evaluates it, reads such
/// dates as UTC.
@Suite(.serialized) struct StreamPredicateZoneTests {
    /// Streams with `arguments` under `environment` while logging `lines` every round, until a
    /// record whose message is `marker` shows; returns the messages shown.
    private func streamedMessages(_ arguments: [String], environment: [String: String], logging lines: [String], marker: String) throws -> [String] {
        let daemon = try RunningDaemon()
        defer { daemon.stop() }
        let output = try TemporaryDirectory("stream-zone")
        let stream = Process()
        stream.executableURL = URL(fileURLWithPath: BuiltProducts.path("diag"))
        stream.arguments = ["stream", "--socket", daemon.socketPath, "--style", "ndjson"] + arguments
        stream.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let file = output.file("stream.ndjson").path
        _ = FileManager.default.createFile(atPath: file, contents: nil)
        stream.standardOutput = FileHandle(forWritingAtPath: file)
        try stream.spawn()
        defer { if stream.isRunning { kill(stream.processIdentifier, SIGKILL) } }
        let client = try DaemonClient(path: daemon.socketPath)
        var messages: [String] = []
        for _ in 0..<200 {
            for line in lines { client.write(line + "\n") }
            usleep(100_000)
            let shown = ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n")
            messages = shown.compactMap { try? JSONReader.parseObject(Array($0.utf8)) }.compactMap { $0["eventMessage"]?.stringValue }
            if messages.contains(marker) { break }
        }
        kill(stream.processIdentifier, SIGINT)
        _ = stream.waitForExit(seconds: 600)
        return messages
    }

    /// Paris is UTC+1 in December: "2026-12-01 18:17:22" there is 17:17:22Z.
    static let lines = [
        #"{"eventMessage":"at 16:00Z","timestamp":"2026-12-01T16:00:00Z"}"#,
        #"{"eventMessage":"at 17:30Z","timestamp":"2026-12-01T17:30:00Z"}"#,
        #"{"eventMessage":"at 19:00Z","timestamp":"2026-12-01T19:00:00Z"}"#,
    ]

    @Test func dateLiteralsAreReadInTZ() throws {
        let messages = try streamedMessages(
            ["--predicate", #"timestamp > "2026-12-01 18:17:22""#], environment: ["TZ": "Europe/Paris"],
            logging: Self.lines, marker: "at 19:00Z")
        #expect(messages.contains("at 19:00Z"))
        // 17:30Z is 18:30 in Paris: after the time typed. Read as UTC, it was left out.
        #expect(messages.contains("at 17:30Z"))
        #expect(!messages.contains("at 16:00Z"))
    }

    @Test func timezoneOptionWinsAndZonedLiteralsKeepTheirZone() throws {
        let messages = try streamedMessages(
            ["--timezone", "UTC", "--predicate", #"timestamp > "2026-12-01 18:17:22" OR timestamp == "2026-12-01 17:00:00-0030""#],
            environment: ["TZ": "Europe/Paris"], logging: Self.lines, marker: "at 19:00Z")
        #expect(messages.contains("at 19:00Z"))
        // Read in UTC (--timezone): 17:30Z is before 18:17:22Z. The literal with its own zone
        // (-0030, 17:30Z) is kept as written.
        #expect(messages.contains("at 17:30Z"))
        #expect(!messages.contains("at 16:00Z"))
    }
}
