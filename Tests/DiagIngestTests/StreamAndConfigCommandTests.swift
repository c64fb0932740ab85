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
        try stream.spawn()
        defer { if stream.isRunning { kill(stream.processIdentifier, SIGKILL) } }

        // Log until the subscription is in place and a matching record shows, then check the filters.
        let client = try DaemonClient(path: daemon.socketPath)
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
        _ = stream.waitForExit(seconds: 600)
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
        let client = try DaemonClient(path: daemon.socketPath)
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

/// `diag config --reset` as `log config --reset` (issue 13, item 10): one category, one subsystem
/// with its categories, or every setting, removed in the running diagd and in its file.
struct LevelSettingResetTests {
    func config(_ daemon: RunningDaemon, _ arguments: [String]) throws -> ProcessOutput {
        try run(BuiltProducts.path("diag"), ["config", "--socket", daemon.socketPath] + arguments)
    }

    @Test func resetRemovesOneSettingOrAll() throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop() }
        for arguments in [
            ["--mode", "persist:default"],
            ["--subsystem", "com.example.sync", "--mode", "level:debug,persist:debug"],
            ["--subsystem", "com.example.sync", "--category", "upload", "--mode", "level:info"],
            ["--subsystem", "com.example.sync", "--category", "push", "--mode", "level:default"],
            ["--subsystem", "com.example.other", "--mode", "persist:debug"],
        ] {
            let set = try config(daemon, arguments)
            #expect(set.status == 0, "\(arguments): \(set.stderr)")
        }
        func lines() throws -> [String] {
            let listed = try config(daemon, [])
            #expect(listed.status == 0, "\(listed.stderr)")
            return listed.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try lines().count == 5)

        // One category: its line goes, its subsystem's and sibling's stay.
        let category = try config(daemon, ["--reset", "--subsystem", "com.example.sync", "--category", "upload"])
        #expect(category.status == 0, "\(category.stderr)")
        #expect(!category.stdout.contains("com.example.sync:upload"))
        #expect(category.stdout.contains("com.example.sync:push level:default"))
        #expect(category.stdout.contains("com.example.sync level:debug,persist:debug"))

        // Records follow the settings now in force: debug of com.example.sync is stored.
        let client = try DaemonClient(path: daemon.socketPath)
        client.write(#"{"eventMessage":"upload debug kept","subsystem":"com.example.sync","category":"upload","messageType":"Debug"}"# + "\n")
        client.write(#"{"sync":1}"# + "\n")
        #expect(client.readReply()?["synced"]?.int64Value == 1)
        #expect(try daemon.clientRecords().map(\.eventMessage).contains("upload debug kept"))

        // A subsystem: its setting and its categories' go; the reset survives a restart.
        let subsystem = try config(daemon, ["--reset", "--subsystem", "com.example.sync"])
        #expect(subsystem.status == 0, "\(subsystem.stderr)")
        #expect(!subsystem.stdout.contains("com.example.sync"))
        #expect(subsystem.stdout.contains("com.example.other persist:debug"))
        daemon.stop()
        try daemon.start()
        let afterRestart = try lines()
        #expect(afterRestart.count == 2, "\(afterRestart)")
        #expect(!afterRestart.joined().contains("com.example.sync"))

        // A setting never made: nothing changes, no error (as log config).
        let absent = try config(daemon, ["--reset", "--subsystem", "com.example.never"])
        #expect(absent.status == 0, "\(absent.stderr)")
        #expect(try lines() == afterRestart)

        // Everything: only the default remains.
        let all = try config(daemon, ["--reset"])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(try lines() == ["(all) level:debug,persist:info"])

        let both = try config(daemon, ["--reset", "--mode", "level:debug"])
        #expect(both.status == 64)
        #expect(both.stderr.contains("--reset and --mode cannot be used together"))
    }

    /// A raw reset request with a mode or a reset that is not true is refused with what is accepted.
    @Test func badResetRequestsAreRefused() throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop() }
        let client = try DaemonClient(path: daemon.socketPath)
        client.write(#"{"config":{"reset":true,"mode":"level:debug"}}"# + "\n")
        #expect(client.readReply()?["error"]?.stringValue?.contains("unknown key 'mode' in a 'config' reset") == true)
        client.write(#"{"config":{"reset":"yes"}}"# + "\n")
        #expect(client.readReply()?["error"]?.stringValue?.contains("'config.reset' must be true") == true)
        client.write(#"{"config":{"reset":true,"category":"x"}}"# + "\n")
        #expect(client.readReply()?["error"]?.stringValue?.contains("'config.category' needs 'config.subsystem'") == true)
    }
}
