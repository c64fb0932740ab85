import DiagModel
import DiagStore
import Foundation
import Glibc

/// A real diagd, the built product, on a temporary store and socket: the one harness every test
/// target starts diagd with. `start` runs it with `--store`, `--socket` and the test's options
/// and returns once it is ready: its socket accepts a connection, or, for a test that waits for
/// another listener, once its stderr holds `readyText`. `stop` is SIGTERM (diagd commits what it
/// queued), `killHard` is SIGKILL; `start` again restarts it on the same store and socket.
/// Its stderr goes to a file in the folder, appended across restarts, read by `stderr`.
public final class RunningDaemon {
    public let directory: TemporaryDirectory
    public let storePath: String
    public let socketPath: String
    public let arguments: [String]
    /// The process of the latest `start`.
    public private(set) var process = Process()
    private let stderrFile: String
    private let environment: [String: String]?
    private let readyText: String?
    /// A program diagd is started through (its path and arguments, diagd's path and arguments
    /// after them), one that ends by executing diagd in its own process (`prlimit`).
    private let launcher: [String]

    /// Starts diagd. `directory` (a new temporary one by default) holds the socket and the stderr
    /// file, and the store unless `storePath` says where; `environment` replaces the test's
    /// (nil: inherited); `readyText` is what diagd's stderr must show before it counts as ready;
    /// `launcher` (e.g. `["/usr/bin/prlimit", "--nofile=100:100"]`) runs diagd through a program
    /// that executes it in the same process.
    public init(arguments: [String] = [], storePath: String? = nil, socketName: String = "diagd.sock",
                directory: TemporaryDirectory? = nil, environment: [String: String]? = nil, readyText: String? = nil,
                launcher: [String] = []) throws {
        // A short folder name by default: Unix socket paths must stay under 108 bytes.
        let directory = try directory ?? TemporaryDirectory("diagd")
        self.directory = directory
        self.storePath = storePath ?? directory.file("store").path
        socketPath = directory.file(socketName).path
        self.arguments = arguments
        self.environment = environment
        self.readyText = readyText
        self.launcher = launcher
        // One file per daemon: several may share a folder (one store, two daemons in turn).
        stderrFile = directory.file("diagd-\(UUID().uuidString.prefix(6)).stderr").path
        _ = FileManager.default.createFile(atPath: stderrFile, contents: nil)
        try start()
    }

    /// Starts (or restarts) diagd and waits until it is ready (20 s at most).
    public func start() throws {
        process = Process()
        let diagd = [BuiltProducts.path("diagd"), "--store", storePath, "--socket", socketPath] + arguments
        let command = launcher + diagd
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        if let environment { process.environment = environment }
        let log = FileHandle(forWritingAtPath: stderrFile)
        log?.seekToEndOfFile()
        process.standardError = log
        process.standardOutput = FileHandle.nullDevice
        try process.spawn()
        let deadline = Date(timeIntervalSinceNow: 20)
        while Date() < deadline {
            if !process.isRunning { throw DaemonFailure("diagd exited with \(process.terminationStatus): \(stderr)") }
            if isReady() { return }
            usleep(20_000)
        }
        throw DaemonFailure("diagd was not ready within 20 s (\(readyText.map { "its stderr never said '\($0)'" } ?? "its socket accepted no connection")): \(stderr)")
    }

    private func isReady() -> Bool {
        if let readyText { return stderr.contains(readyText) }
        guard let descriptor = try? UnixSocket.connect(path: socketPath) else { return false }
        close(descriptor)
        return true
    }

    /// What diagd wrote on stderr, every run so far.
    public var stderr: String { (try? String(contentsOfFile: stderrFile, encoding: .utf8)) ?? "" }

    public var isRunning: Bool { process.isRunning }
    public var processIdentifier: Int32 { process.processIdentifier }
    public var terminationStatus: Int32 { process.terminationStatus }

    /// SIGTERM, then waits; returns the exit status, or -1 when diagd had to be killed after 30 s.
    @discardableResult
    public func stop() -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        Glibc.kill(process.processIdentifier, SIGTERM)
        if !process.waitForExit(seconds: 30) {
            killHard()
            return -1
        }
        return process.terminationStatus
    }

    /// SIGKILL, as a crash or the OOM killer: nothing is committed on the way out.
    public func killHard() {
        kill(SIGKILL)
    }

    /// Sends `signal` and waits for diagd to exit.
    public func kill(_ signal: Int32) {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, signal)
        _ = process.waitForExit(seconds: 60)
    }

    /// Sends NDJSON record lines on one connection, then `{"sync":1}`, and waits for
    /// `{"synced":1}`: once it returns, diagd has committed them.
    public func send(_ lines: [String]) throws {
        let client = try DaemonClient(path: socketPath)
        client.write(lines.joined(separator: "\n") + "\n")
        let refused = try client.sync(1)
        guard refused.isEmpty else { throw DaemonFailure("diagd answered \(refused)") }
    }

    /// Every record in the store, oldest first.
    public func storedRecords() throws -> [LogRecord] {
        try Self.records(inStore: storePath)
    }

    /// Records not logged by diagd itself.
    public func clientRecords() throws -> [LogRecord] {
        try storedRecords().filter { $0.process != "diagd" }
    }

    /// Every record in the store at `storePath`, oldest first.
    public static func records(inStore storePath: String) throws -> [LogRecord] {
        let store = try LogStore.open(at: URL(fileURLWithPath: storePath), options: .readOnly)
        let cursor = store.records()
        var records: [LogRecord] = []
        while let record = try cursor.next() { records.append(record) }
        return records
    }

    deinit {
        if process.isRunning { killHard() }
    }
}

/// diagd did not start, or not as the test needs.
public struct DaemonFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
