@testable import DiagBundle
import Foundation
import Testing
import TestSupport

/// Interrupted unpacks leave nothing in the cache, and `diag cache` shows and clears it
/// (issue 13, item 4).
struct InterruptedUnpackTests {
    /// The id of a process that has ended.
    func deadProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalDuringAnUnpackRemovesItsFolder(signal: Int32) throws {
        let folder = try TemporaryDirectory("diag-interrupt")
        let archive = folder.file("whole.tar")
        try makeArchive(archive, compression: .none) { writer in
            try writer.addFile("diagnose_test/zeros.bin", contents: [UInt8](repeating: 0, count: 8 << 20))
            try writeMinimalBundle(writer)
        }
        // The archive arrives through a FIFO, so the unpack waits, half done, for the rest.
        let fifo = folder.file("slow.tar")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("diag"))
        process.arguments = ["show", fifo.path]
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": folder.file("cache").path]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let writer = open(fifo.path, O_WRONLY)
        #expect(writer >= 0)
        let bytes = try Data(contentsOf: archive)
        let written = bytes.prefix(2 << 20).withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        #expect(written == 2 << 20)
        let cache = folder.file("cache/diag/bundles")
        var unpacking: [String] = []
        for _ in 0..<500 where unpacking.isEmpty {
            unpacking = ((try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? []).filter { $0.hasPrefix(".unpack-\(process.processIdentifier)-") }
            usleep(10_000)
        }
        #expect(unpacking.count == 1)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        close(writer)
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == signal)
        #expect(cachedBundles(folder).isEmpty)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? []).filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test func foldersOfKilledRunsAreSweptAndTheCacheIsListedAndCleared() throws {
        let folder = try TemporaryDirectory("diag-interrupt")
        let cache = folder.file("cache/diag/bundles")
        let dead = try deadProcessID()
        let abandoned = cache.appendingPathComponent(".unpack-\(dead)-AbCdEf")
        let alive = cache.appendingPathComponent(".verify-\(getpid())-GhIjKl")
        for leftover in [abandoned, alive] {
            try FileManager.default.createDirectory(at: leftover.appendingPathComponent("diagnose_x"), withIntermediateDirectories: true)
            try Data(count: 4096).write(to: leftover.appendingPathComponent("diagnose_x/part"))
        }
        let listed = try diag(["cache", "list"], cacheIn: folder)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains(".unpack-\(dead)-AbCdEf  unpack abandoned by process \(dead)"), "\(listed.stdout)")
        #expect(listed.stdout.contains(".verify-\(getpid())-GhIjKl  verify in use by process \(getpid())"), "\(listed.stdout)")

        let archive = folder.file("bundle.tar.gz")
        try makeArchive(archive) { try writeMinimalBundle($0) }
        #expect(try diag(["verify", archive.path], cacheIn: folder).status == 65)  // no store: not a whole bundle
        #expect(!FileManager.default.fileExists(atPath: abandoned.path))
        #expect(FileManager.default.fileExists(atPath: alive.path))
        #expect(try diag(["show", archive.path], cacheIn: folder).status == 65)  // no store in it: bad input
        let unpacked = cachedBundles(folder).filter { !$0.hasPrefix(".") }
        #expect(unpacked.count == 1)
        let before = try diag(["cache", "list"], cacheIn: folder)
        #expect(before.stdout.contains("\(unpacked[0])  "), "\(before.stdout)")
        #expect(before.stdout.contains("diagnose_test"))

        let cleared = try diag(["cache", "clear"], cacheIn: folder)
        #expect(cleared.status == 0, "\(cleared.stderr)")
        #expect(cleared.stdout.contains("removed 1 bundles"), "\(cleared.stdout)")
        #expect(cachedBundles(folder).filter { !$0.hasPrefix(".") }.isEmpty)
        #expect(FileManager.default.fileExists(atPath: alive.path))
    }
}
