import DiagModel
import Foundation
import Glibc
import Testing
import TestSupport

/// `diag stream --level error|fault` and `--type log|activity|signpost|trace`, as `log stream`
/// users type them, against a real diagd.
@Suite(.serialized) struct StreamLevelAndTypeTests {
    /// Streams with `arguments` while logging `lines` every round, until `wanted` records show.
    private func streamed(_ arguments: [String], logging lines: [String], wanted: Int) throws -> [[String: JSONValue]] {
        let daemon = try RunningDaemon()
        defer { daemon.stop() }
        let output = try TemporaryDirectory("stream-kinds")
        let stream = Process()
        stream.executableURL = URL(fileURLWithPath: BuiltProducts.path("diag"))
        stream.arguments = ["stream", "--socket", daemon.socketPath, "--style", "ndjson"] + arguments
        let file = output.file("stream.ndjson").path
        _ = FileManager.default.createFile(atPath: file, contents: nil)
        stream.standardOutput = FileHandle(forWritingAtPath: file)
        try stream.run()
        defer { if stream.isRunning { kill(stream.processIdentifier, SIGKILL) } }
        let client = try RawClient(path: daemon.socketPath)
        // The subscription starts a moment after the process: log rounds until enough show.
        var shown: [String] = []
        for _ in 0..<200 {
            for line in lines { client.write(line + "\n") }
            usleep(100_000)
            shown = ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            if shown.count >= wanted { break }
        }
        kill(stream.processIdentifier, SIGINT)
        stream.waitUntilExit()
        return shown.compactMap { try? JSONReader.parseObject(Array($0.utf8)) }
    }

    @Test func levelErrorShowsOnlyErrorsAndFaults() throws {
        let records = try streamed(["--level", "error"], logging: [
            #"{"eventMessage":"fine","messageType":"Default"}"#,
            #"{"eventMessage":"broken","messageType":"Error"}"#,
            #"{"eventMessage":"very broken","messageType":"Fault"}"#,
        ], wanted: 2)
        #expect(records.count >= 2)
        #expect(records.allSatisfy { ["Error", "Fault"].contains($0["messageType"]?.stringValue ?? "") })
    }

    @Test func typeActivityShowsOnlyActivities() throws {
        let records = try streamed(["--type", "activity"], logging: [
            #"{"eventMessage":"a log line","eventType":"logEvent"}"#,
            #"{"eventMessage":"export","eventType":"activityCreateEvent","activityIdentifier":77}"#,
        ], wanted: 1)
        #expect(!records.isEmpty)
        #expect(records.allSatisfy { $0["eventType"]?.stringValue == "activityCreateEvent" })
        let refused = try run(BuiltProducts.path("diag"), ["stream", "--type", "gossip"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("'log', 'activity', 'signpost', 'trace'"))
    }
}
