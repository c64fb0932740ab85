import DiagModel
import Foundation
import Glibc
import Testing
import TestSupport

/// `diag stream` and `diag config`, the built commands, against a real diagd.
@Suite(.serialized) struct StreamAndConfigCommandTests {
    @Test func streamPrintsLiveRecordsThatPassItsPredicate() throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop() }
        let output = try TemporaryDirectory("stream-out")
        let stream = Process()
        stream.executableURL = URL(fileURLWithPath: BuiltProducts.path("diag"))
        stream.arguments = ["stream", "--socket", daemon.socketPath, "--style", "ndjson", "--level", "debug",
                            "--predicate", "subsystem == 'com.example.sync' AND message CONTAINS[c] 'UPLOAD'"]
        let file = output.file("stream.ndjson").path
        _ = FileManager.default.createFile(atPath: file, contents: nil)
        stream.standardOutput = FileHandle(forWritingAtPath: file)
        stream.standardError = FileHandle(forWritingAtPath: file)
        try stream.run()
        defer { if stream.isRunning { kill(stream.processIdentifier, SIGKILL) } }

        // Log until the subscription is in place and a matching record shows, then check the filters.
        let client = try RawClient(path: daemon.socketPath)
        let deadline = Date(timeIntervalSinceNow: 20)
        var round = 0
        var lines: [String] = []
        while Date() < deadline {
            round += 1
            client.write(#"{"eventMessage":"upload \#(round) started","subsystem":"com.example.sync","messageType":"Debug"}"# + "\n")
            client.write(#"{"eventMessage":"download \#(round)","subsystem":"com.example.sync"}"# + "\n")
            client.write(#"{"eventMessage":"upload elsewhere","subsystem":"com.example.other"}"# + "\n")
            usleep(100_000)
            lines = ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            if lines.count >= 2 { break }
        }
        kill(stream.processIdentifier, SIGINT)
        stream.waitUntilExit()
        let records = lines.compactMap { try? JSONReader.parseObject(Array($0.utf8)) }
        #expect(records.count >= 2, "stream printed: \(lines)")
        for record in records {
            #expect(record["subsystem"]?.stringValue == "com.example.sync")
            #expect(record["eventMessage"]?.stringValue?.hasPrefix("upload ") == true)
            #expect(record["messageType"]?.stringValue == "Debug")
            // Trusted fields come from the kernel: the test process logged them.
            #expect(record["processID"]?.int64Value == Int64(getpid()))
        }
    }

    @Test func configChangesWhatDiagdStoresAndTheSettingSurvivesARestart() throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop() }
        let set = try run(BuiltProducts.path("diag"), ["config", "--socket", daemon.socketPath,
                                                        "--subsystem", "com.example.sync", "--mode", "level:debug,persist:debug"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("com.example.sync"))
        let client = try RawClient(path: daemon.socketPath)
        client.write(#"{"eventMessage":"kept debug","subsystem":"com.example.sync","messageType":"Debug"}"# + "\n")
        client.write(#"{"eventMessage":"ring-only debug","subsystem":"com.example.other","messageType":"Debug"}"# + "\n")
        client.write(#"{"sync":1}"# + "\n")
        #expect(client.readReply()?["synced"]?.int64Value == 1)
        let stored = try daemon.clientRecords().map(\.eventMessage)
        #expect(stored.contains("kept debug"))
        #expect(!stored.contains("ring-only debug"))

        daemon.stop()
        try daemon.start()
        let shown = try run(BuiltProducts.path("diag"), ["config", "--socket", daemon.socketPath])
        #expect(shown.status == 0)
        #expect(shown.stdout.contains("com.example.sync"))
        #expect(shown.stdout.contains("persist:debug"))

        let refused = try run(BuiltProducts.path("diag"), ["config", "--socket", daemon.socketPath, "--subsystem", "x", "--mode", "level:loud"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("loud"))
    }
}

/// Level settings are bounded (issue 13, item 10): a name over the bound is refused with the
/// reason, and the settings stay listable.
struct LevelSettingBoundTests {
    @Test func aHugeSubsystemNameIsRefusedAndTheSettingsStayListable() throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop() }
        let huge = String(repeating: "s", count: 300)
        let refused = try run(BuiltProducts.path("diag"), ["config", "--socket", daemon.socketPath, "--subsystem", huge, "--mode", "level:debug"])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("the subsystem name is 300 bytes; at most 256 are accepted"), "\(refused.stderr)")
        let listed = try run(BuiltProducts.path("diag"), ["config", "--socket", daemon.socketPath])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(!listed.stdout.contains(huge))
    }
}
