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
        try stream.spawn()
        defer { if stream.isRunning { kill(stream.processIdentifier, SIGKILL) } }
        let client = try DaemonClient(path: daemon.socketPath)
        // The subscription starts a moment after the process: log rounds until enough show.
        var shown: [String] = []
        for _ in 0..<200 {
            for line in lines { client.write(line + "\n") }
            usleep(100_000)
            shown = ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            if shown.count >= wanted { break }
        }
        kill(stream.processIdentifier, SIGINT)
        _ = stream.waitForExit(seconds: 600)
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

    /// stream takes show's filters and predicate options (the shared groups): --debug lowers
    /// the level, --sender narrows the predicate diagd evaluates.
    @Test func debugAndSenderAreShowsFilters() throws {
        let records = try streamed(["--debug", "--sender", "libWanted.dylib"], logging: [
            #"{"eventMessage":"wanted detail","messageType":"Debug","sender":"libWanted.dylib"}"#,
            #"{"eventMessage":"other","messageType":"Default","sender":"libOther.dylib"}"#,
        ], wanted: 2)
        #expect(records.count >= 2)
        #expect(records.allSatisfy { $0["sender"]?.stringValue == "libWanted.dylib" && $0["messageType"]?.stringValue == "Debug" })
    }

    @Test func aPredicateFileWithVariablesIsEvaluatedByDiagd() throws {
        let folder = try TemporaryDirectory("stream-predicate-file")
        let file = try folder.write("wanted.predicate", "# only one subsystem\nsubsystem == $SUBSYSTEM\n")
        let records = try streamed(["--predicate-file", file, "--var", "SUBSYSTEM=com.example.wanted"], logging: [
            #"{"eventMessage":"in","subsystem":"com.example.wanted"}"#,
            #"{"eventMessage":"out","subsystem":"com.example.other"}"#,
        ], wanted: 2)
        #expect(records.count >= 2)
        #expect(records.allSatisfy { $0["subsystem"]?.stringValue == "com.example.wanted" })
    }

    @Test func contradictoryOptionsAreBadUsageBeforeAnyConnection() throws {
        let both = try run(BuiltProducts.path("diag"), ["stream", "--socket", "/nonexistent/d.sock", "--level", "error", "--info"])
        #expect(both.status == 64, "\(both.stderr)")
        #expect(both.stderr.contains("--info and --level error cannot be used together"), "\(both.stderr)")
        let predicates = try run(BuiltProducts.path("diag"), ["stream", "--socket", "/nonexistent/d.sock", "--predicate", "a == 1", "--predicate-file", "f"])
        #expect(predicates.status == 64)
        #expect(predicates.stderr.hasPrefix("Error: --predicate and --predicate-file cannot be used together"), "\(predicates.stderr)")
    }
}
