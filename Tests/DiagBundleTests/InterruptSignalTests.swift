@testable import DiagBundle
import Foundation
import Testing
import TestSupport

/// SIGINT and SIGTERM during an unpack remove its folder and end `diag` as the signal would;
/// after SIGKILL the next run sweeps it (issue 13, item 4).
///
/// The archive is a FIFO this test writes: `diag` unpacks the first entry's first bytes, then
/// waits for more, so the unpack is in progress for as long as the test needs, with no timing.
/// The signal is sent once the temporary folder holds that partial file: the handlers are
/// installed before the folder is made (InterruptCleanup), so from then on the signal must find
/// them. (`verify` unpacks into `.verify-*`; `report` unpacks into the cache's `.unpack-*`.)
struct InterruptSignalTests {
    struct Interruption: CustomStringConvertible, Sendable {
        var command: String
        var kind: BundleCache.TemporaryKind
        var signal: Int32
        var description: String { "\(command) interrupted by signal \(signal)" }
    }

    static let interruptions = [
        Interruption(command: "verify", kind: .verify, signal: SIGINT),
        Interruption(command: "verify", kind: .verify, signal: SIGTERM),
        Interruption(command: "report", kind: .unpack, signal: SIGINT),
        Interruption(command: "report", kind: .unpack, signal: SIGTERM),
    ]

    @Test(arguments: interruptions)
    func theUnpackFolderIsRemovedAndTheSignalEndsTheProcess(_ interruption: Interruption) throws {
        let sandbox = try TemporaryDirectory("diag-signal")
        let unpacking = try UnpackInProgress(sandbox, command: interruption.command, kind: interruption.kind)
        defer { unpacking.finish() }
        kill(unpacking.process.processIdentifier, interruption.signal)
        try #require(unpacking.process.waitForExit(seconds: 600))
        #expect(unpacking.process.terminationReason == .uncaughtSignal)
        #expect(unpacking.process.terminationStatus == interruption.signal)
        #expect(!FileManager.default.fileExists(atPath: unpacking.folder.path), "\(unpacking.folder.path) is left")
        #expect(cachedBundles(sandbox).filter { $0.hasPrefix(".") }.isEmpty, "\(cachedBundles(sandbox))")
    }

    @Test func afterSIGKILLTheNextRunSweepsTheFolder() throws {
        let sandbox = try TemporaryDirectory("diag-signal")
        let unpacking = try UnpackInProgress(sandbox, command: "verify", kind: .verify)
        kill(unpacking.process.processIdentifier, SIGKILL)
        let reaped = unpacking.process.waitForExit(seconds: 600)
        unpacking.finish()
        try #require(reaped)
        #expect(unpacking.process.terminationStatus == SIGKILL)
        #expect(FileManager.default.fileExists(atPath: unpacking.folder.path), "SIGKILL cannot be handled: the folder stays")
        let archive = sandbox.file("other.tar.gz")
        try makeArchive(archive) { try writeMinimalBundle($0) }
        _ = try diag(["verify", archive.path], cacheIn: sandbox)
        #expect(!FileManager.default.fileExists(atPath: unpacking.folder.path), "the next run did not sweep \(unpacking.folder.path)")
    }
}

/// `diag COMMAND FIFO` running, with the first bytes of a bundle's archive unpacked into its
/// temporary folder and the rest held back.
final class UnpackInProgress {
    let process = Process()
    /// The temporary folder, found in the cache.
    private(set) var folder: URL
    private let writer: FileHandle

    init(_ sandbox: TemporaryDirectory, command: String, kind: BundleCache.TemporaryKind) throws {
        let tar = sandbox.file("whole.tar")
        try makeArchive(tar, compression: .none) { writer in
            try writer.addFile("diagnose_test/big.bin", contents: [UInt8](repeating: 7, count: 4 << 20))
            try writeMinimalBundle(writer)
        }
        let fifo = sandbox.file("bundle.tar")
        guard mkfifo(fifo.path, 0o600) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = sandbox.file("cache").path
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("diag"))
        process.arguments = [command, fifo.path]
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        BrokenPipes.ignoreInThisProcess()
        try process.spawn()
        // Opened for writing once diag has opened it for reading (without blocking on a diag
        // that refused it and ended).
        var descriptor: Int32 = -1
        for _ in 0..<600 where process.isRunning {
            descriptor = open(fifo.path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if descriptor >= 0 || errno != ENXIO { break }
            usleep(100_000)
        }
        guard descriptor >= 0 else {
            process.terminate()
            throw UnpackNotSeen(reason: "\(command): the FIFO was never opened for reading", place: fifo.path)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        writer = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let whole = try Data(contentsOf: tar)
        // libarchive's read of an entry fills diag's 1 MiB buffer before it returns: 2.5 MiB let
        // two buffers be written to the partial file, and the third read waits.
        try writer.write(contentsOf: whole.prefix(5 << 19))
        let cache = sandbox.file("cache/diag/bundles")
        let prefix = BundleCache.temporaryPrefix(kind, pid: process.processIdentifier)
        var found: URL?
        // Until the partial file is there (not a time bound: a failure guard, a minute at most).
        for _ in 0..<600 where found == nil {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? []
            if let name = names.first(where: { $0.hasPrefix(prefix) }) {
                let partial = cache.appendingPathComponent(name).appendingPathComponent("diagnose_test/big.bin")
                if let size = try? FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? Int, size > 0 {
                    found = cache.appendingPathComponent(name)
                }
            }
            if found == nil { usleep(100_000) }
        }
        guard let found else {
            try? writer.close()
            process.terminate()
            throw UnpackNotSeen(reason: "no \(prefix)… folder holding a partial file appeared", place: cache.path)
        }
        folder = found
    }

    /// Closes the FIFO's writing end (the process may be gone: a broken pipe is ignored).
    func finish() {
        try? writer.close()
        if process.isRunning {
            process.terminate()
            _ = process.waitForExit(seconds: 600)
        }
    }
}

/// The unpack the test waits for did not start: why, and where it looked.
struct UnpackNotSeen: Error, CustomStringConvertible {
    var reason: String
    var place: String
    var description: String { "\(reason) (\(place))" }
}
