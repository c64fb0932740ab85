import Foundation

/// Runs the package's built executables (`diag`, `diagd`) from tests, as a user would.
public enum BuiltProducts {
    /// The folder holding the built products (`.build/debug`), found from the test bundle.
    public static var directory: URL {
        if let override = ProcessInfo.processInfo.environment["DIAG_PRODUCTS_DIR"] {
            return URL(fileURLWithPath: override)
        }
        var url = Bundle.main.bundleURL
        while url.path != "/" {
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("diag").path)
                || FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("diagd").path)
            {
                return url
            }
            url.deleteLastPathComponent()
        }
        return Bundle.main.bundleURL.deletingLastPathComponent()
    }

    public static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// The repository's test fixtures (`Tests/Fixtures`), found from this source file.
    public static var fixturesDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures")
    }

    /// A real log of the loghub samples vendored in `Tests/Fixtures/loghub` (README there).
    public static func corpusFile(_ name: String) -> String? {
        let file = fixturesDirectory.appendingPathComponent("loghub").appendingPathComponent(name)
        return FileManager.default.fileExists(atPath: file.path) ? file.path : nil
    }
}

/// What a finished process printed and how it ended.
public struct ProcessOutput: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs an executable to completion with the given arguments, environment additions and input.
public func run(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:],
    input: Data? = nil, currentDirectory: String? = nil
) throws -> ProcessOutput {
    BrokenPipes.ignoreInThisProcess()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    process.environment = env
    if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
    let outPipe = Spawning.pipe()
    let errPipe = Spawning.pipe()
    let inPipe = Spawning.pipe()
    process.standardOutput = outPipe
    process.standardError = errPipe
    process.standardInput = inPipe
    try process.spawn()
    // Read both pipes concurrently so neither fills and blocks the child.
    let errData = LockedData()
    let errThread = Thread { errData.set(errPipe.fileHandleForReading.readDataToEndOfFile()) }
    errThread.start()
    if let input { try? inPipe.fileHandleForWriting.write(contentsOf: input) }
    try? inPipe.fileHandleForWriting.close()
    let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
    guard process.waitForExit(seconds: 600) else {
        throw TestProcessFailure(description: "\(executable) \(arguments.joined(separator: " ")): not reaped 600 s after its output ended")
    }
    while !errData.isSet { usleep(1000) }
    return ProcessOutput(
        status: process.terminationStatus,
        stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData.value, as: UTF8.self)
    )
}

/// A child process that did not end (or was not seen to end) in time.
public struct TestProcessFailure: Error, CustomStringConvertible {
    public let description: String
}

/// A value one thread sets and another waits for.
final class LockedData: @unchecked Sendable {
    // Safe: every access goes through `lock`.
    private let lock = NSLock()
    private var data = Data()
    private var done = false

    func set(_ value: Data) { lock.lock(); data = value; done = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return done }
    var value: Data { lock.lock(); defer { lock.unlock() }; return data }
}
