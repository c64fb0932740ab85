import DiagModel
import DiagStore
import Foundation
import Glibc
import TestSupport

/// A real diagd started from the built product on a temporary store and socket.
final class RunningDaemon {
    let directory: TemporaryDirectory
    let storePath: String
    let socketPath: String
    let arguments: [String]
    private(set) var process: Process
    private let stderrFile: String

    init(arguments: [String] = [], storePath: String? = nil, directory: TemporaryDirectory? = nil) throws {
        let directory = try directory ?? TemporaryDirectory("diagd")
        self.directory = directory
        self.storePath = storePath ?? directory.file("store").path
        socketPath = directory.file("diagd.sock").path
        self.arguments = arguments
        stderrFile = directory.file("diagd-\(UUID().uuidString.prefix(6)).stderr").path
        process = Process()
        try start()
    }

    /// Starts (or restarts) diagd and waits until it accepts connections.
    func start() throws {
        _ = FileManager.default.createFile(atPath: stderrFile, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("diagd"))
        process.arguments = ["--store", storePath, "--socket", socketPath] + arguments
        process.standardError = FileHandle(forWritingAtPath: stderrFile)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date(timeIntervalSinceNow: 20)
        while Date() < deadline {
            if !process.isRunning { throw DaemonFailure("diagd exited with \(process.terminationStatus): \(stderr)") }
            if let socket = try? RawClient(path: socketPath) { socket.close(); return }
            usleep(20_000)
        }
        throw DaemonFailure("diagd did not accept connections within 20 s: \(stderr)")
    }

    var stderr: String { (try? String(contentsOfFile: stderrFile, encoding: .utf8)) ?? "" }

    /// SIGTERM, then waits; returns the exit status, or -1 when diagd had to be killed after 30 s.
    @discardableResult
    func stop() -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date(timeIntervalSinceNow: 30)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            killHard()
            return -1
        }
        return process.terminationStatus
    }

    func killHard() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Every record in the store, oldest first.
    func storedRecords() throws -> [LogRecord] {
        try Self.records(inStore: storePath)
    }

    /// Every record in the store at `storePath`, oldest first.
    static func records(inStore storePath: String) throws -> [LogRecord] {
        let store = try LogStore.open(at: URL(fileURLWithPath: storePath), options: .readOnly)
        let cursor = store.records()
        var records: [LogRecord] = []
        while let record = try cursor.next() { records.append(record) }
        return records
    }

    /// Records not logged by diagd itself.
    func clientRecords() throws -> [LogRecord] {
        try storedRecords().filter { $0.process != "diagd" }
    }

    deinit {
        if process.isRunning { killHard() }
    }
}

struct DaemonFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A client that speaks the protocol by hand, for hostile input.
final class RawClient {
    let descriptor: Int32

    init(path: String) throws {
        descriptor = try UnixSocket.connect(path: path)
    }

    func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            offset += count
        }
    }

    func write(_ text: String) { write(Array(text.utf8)) }

    func finishWriting() { shutdown(descriptor, Int32(SHUT_WR)) }

    private var pending: [UInt8] = []

    /// The next reply line, parsed; nil at the end of the stream or after `timeout` seconds.
    func readReply(timeout: Int32 = 30) -> [String: JSONValue]? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                return try? JSONReader.parseObject(line)
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, timeout * 1000) > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            pending.append(contentsOf: chunk[0..<count])
        }
    }

    /// Reads replies until `{"synced": id}`; returns the replies before it.
    func waitForSync(_ id: Int64) -> [[String: JSONValue]]? {
        var others: [[String: JSONValue]] = []
        while let reply = readReply() {
            if reply["synced"]?.int64Value == id { return others }
            others.append(reply)
        }
        return nil
    }

    func close() { shutdown(descriptor, Int32(SHUT_RDWR)) }

    deinit { Glibc.close(descriptor) }
}
