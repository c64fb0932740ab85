import Foundation
import Glibc
import TestSupport

/// A real diagd from the built product with forwards, on a temporary store and socket.
final class ForwardingDaemon {
    let directory: TemporaryDirectory
    let storePath: String
    let socketPath: String
    let arguments: [String]
    private var process = Process()
    private let stderrFile: String

    init(arguments: [String]) throws {
        directory = try TemporaryDirectory("diagd-forward")
        storePath = directory.file("store").path
        socketPath = directory.file("diagd.sock").path
        stderrFile = directory.file("diagd.stderr").path
        self.arguments = arguments
        try start()
    }

    /// Starts (or restarts) diagd and waits until it accepts connections.
    func start() throws {
        if !FileManager.default.fileExists(atPath: stderrFile) {
            _ = FileManager.default.createFile(atPath: stderrFile, contents: nil)
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("diagd"))
        process.arguments = ["--store", storePath, "--socket", socketPath] + arguments
        let log = FileHandle(forWritingAtPath: stderrFile)
        log?.seekToEndOfFile()
        process.standardError = log
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date(timeIntervalSinceNow: 20)
        while Date() < deadline {
            if !process.isRunning { throw ReceiverFailure("diagd exited with \(process.terminationStatus): \(stderr)") }
            if let descriptor = try? UnixSocket.connect(path: socketPath) { close(descriptor); return }
            usleep(20_000)
        }
        throw ReceiverFailure("diagd did not accept connections within 20 s: \(stderr)")
    }

    var stderr: String { (try? String(contentsOfFile: stderrFile, encoding: .utf8)) ?? "" }

    /// Sends NDJSON record lines on one connection and waits for `synced`: they are committed.
    func send(_ lines: [String]) throws {
        try Self.send(lines, to: socketPath)
    }

    static func send(_ lines: [String], to socketPath: String) throws {
        let descriptor = try UnixSocket.connect(path: socketPath)
        defer { close(descriptor) }
        let bytes = Array((lines.joined(separator: "\n") + "\n{\"sync\":1}\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw ReceiverFailure("writing to diagd failed: \(String(cString: strerror(errno)))") }
            offset += count
        }
        var reply = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 256)
        while !reply.contains(UInt8(ascii: "\n")) {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { throw ReceiverFailure("diagd closed the connection before {\"synced\":1}") }
            reply += buffer[..<count]
        }
        guard String(decoding: reply, as: UTF8.self).hasPrefix("{\"synced\":1}") else {
            throw ReceiverFailure("diagd answered \(String(decoding: reply, as: UTF8.self))")
        }
    }

    func kill(_ signal: Int32) {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, signal)
        process.waitUntilExit()
    }

    var terminationStatus: Int32 { process.terminationStatus }

    var processIdentifier: Int32 { process.processIdentifier }

    deinit { kill(SIGKILL) }
}

/// A record line for diagd: the message carries `tag` and `index`, so that the receiver's copy
/// can be matched.
func recordLine(tag: String, index: Int, message: String = "", extra: String = "") -> String {
    let text = "\(tag) #\(index)\(message.isEmpty ? "" : " ")\(message)"
    var escaped = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": escaped += "\\\""
        case "\\": escaped += "\\\\"
        case "\n": escaped += "\\n"
        default: escaped.unicodeScalars.append(scalar)
        }
    }
    return "{\"eventMessage\":\"\(escaped)\"\(extra)}"
}

