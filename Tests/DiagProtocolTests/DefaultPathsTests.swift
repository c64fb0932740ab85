import DiagProtocol
import Foundation
import Glibc
import Testing
import TestSupport

@Suite struct DefaultPathsTests {
    @Test func defaultPathsFollowTheEnvironment() {
        #expect(DefaultPaths.socket(environment: ["DIAG_SOCKET": "/run/x.sock", "XDG_RUNTIME_DIR": "/run/user/1"]) == "/run/x.sock")
        #expect(DefaultPaths.socket(environment: ["XDG_RUNTIME_DIR": "/run/user/1"]) == "/run/user/1/diag/diagd.sock")
        #expect(DefaultPaths.socket(store: "/s", environment: [:]) == "/s/diagd.sock")
        #expect(DefaultPaths.store(environment: ["DIAG_STORE": "/d"]) == "/d")
        #expect(DefaultPaths.store(environment: ["XDG_STATE_HOME": "/st"]) == "/st/diag/system_logs.logarchive")
        #expect(DefaultPaths.store(environment: ["HOME": "/home/a"]) == "/home/a/.local/state/diag/system_logs.logarchive")
        #expect(DefaultPaths.socket(environment: ["HOME": "/home/a"]) == "/home/a/.local/state/diag/system_logs.logarchive/diagd.sock")
    }

    /// The XDG Base Directory specification: a relative path in these variables is invalid and
    /// must be ignored; an empty one is unset.
    @Test(arguments: ["relative/state", "./state", "state", ""])
    func aRelativeOrEmptyXDGDirectoryIsIgnored(value: String) {
        let home = "/home/a/.local/state/diag/system_logs.logarchive"
        #expect(DefaultPaths.store(environment: ["HOME": "/home/a", "XDG_STATE_HOME": value]) == home)
        #expect(DefaultPaths.socket(environment: ["HOME": "/home/a", "XDG_STATE_HOME": value, "XDG_RUNTIME_DIR": value]) == home + "/diagd.sock")
        #expect(DefaultPaths.store(environment: ["HOME": "/home/a", "DIAG_STORE": ""]) == home)
    }

    /// diagd and diag started with the same environment (a relative `$XDG_STATE_HOME`, no
    /// `$DIAG_STORE`) use the same store: diag finds the one diagd created under `$HOME`.
    @Test func diagAndDiagdResolveTheSameStore() throws {
        let directory = try TemporaryDirectory("default-paths")
        let home = directory.file("home").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        for name in ["DIAG_STORE", "DIAG_SOCKET", "XDG_RUNTIME_DIR"] { environment[name] = nil }
        environment["HOME"] = home
        environment["XDG_STATE_HOME"] = "relative/state"

        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: BuiltProducts.path("diagd"))
        daemon.environment = environment
        daemon.currentDirectoryURL = directory.url
        daemon.standardError = FileHandle.nullDevice
        try daemon.spawn()
        defer {
            kill(daemon.processIdentifier, SIGTERM)
            _ = daemon.waitForExit(seconds: 600)
        }
        let store = home + "/.local/state/diag/system_logs.logarchive"
        let deadline = Date(timeIntervalSinceNow: 20)
        while !FileManager.default.fileExists(atPath: store + "/diagd.sock") && Date() < deadline && daemon.isRunning { usleep(20_000) }
        #expect(FileManager.default.fileExists(atPath: store + "/diagd.sock"), "diagd did not listen in the store under $HOME")

        let shown = try run(BuiltProducts.path("diag"), ["show", "--style", "ndjson"],
                            environment: ["HOME": home, "XDG_STATE_HOME": "relative/state", "DIAG_STORE": "", "DIAG_SOCKET": "", "XDG_RUNTIME_DIR": ""],
                            currentDirectory: directory.path)
        #expect(shown.status == 0, "diag show did not find diagd's store: \(shown.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("relative").path), "a relative XDG_STATE_HOME was used")
    }
}
