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
        try process.spawn()
        _ = process.waitForExit(seconds: 600)
        return process.processIdentifier
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
