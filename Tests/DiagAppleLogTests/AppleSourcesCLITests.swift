import Foundation
import Testing
import TestSupport

/// `diag show` and `diag import` on Apple sources as a user runs them: a sysdiagnose-like
/// `.tar.gz` holding a `.logarchive`, merged by time with another source, and imported into a store.
@Suite struct AppleSourcesCLITests {
    /// `sysdiagnose_2026…/system_logs.logarchive/…` packed with tar and gzip.
    static func sysdiagnose(in folder: TemporaryDirectory) throws -> (archive: String, synthetic: SyntheticArchive) {
        let synthetic = try SyntheticArchive()
        let top = folder.file("sysdiagnose_2026.12.01_20-00-00+0000_iPhone-OS_iPhone_21A5248")
        try FileManager.default.createDirectory(at: top, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: synthetic.path, toPath: top.appendingPathComponent("system_logs.logarchive").path)
        try Data("ps output\n".utf8).write(to: top.appendingPathComponent("ps.txt"))
        let archive = folder.file("sysdiagnose.tar.gz").path
        let tar = try run("/bin/tar", ["-czf", archive, "-C", folder.path, top.lastPathComponent])
        #expect(tar.status == 0, "\(tar.stderr)")
        return (archive, synthetic)
    }

    @Test func sysdiagnoseArchiveMergedByTimeWithAnotherSource() throws {
        let folder = try TemporaryDirectory("apple-sysdiagnose")
        let (archive, _) = try Self.sysdiagnose(in: folder)
        // A Linux component's record between the Apple records (the sync record is at 1.8e18 ns).
        let linux = try folder.write("sync-core.ndjson", #"{"timestamp":1800000000000050000,"process":"sync-core","processID":7,"subsystem":"com.example.sync","messageType":"Default","eventMessage":"uploaded batch 1"}"# + "\n")
        let environment = ["XDG_CACHE_HOME": folder.file("cache").path]
        let output = try run(BuiltProducts.path("diag"), [
            "show", archive, linux, "--info", "--debug", "--style", "ndjson",
            "--predicate", #"subsystem == "com.example.sync" OR process == "sync-core""#,
        ], environment: environment)
        #expect(output.status == 0, "\(output.stderr)")
        let messages = output.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let data = line.data(using: .utf8), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
            return object["eventMessage"] as? String
        }
        // Apple's error at +10 µs and signpost at +40 µs, the Linux record at +50 µs, Apple's
        // fault (its format string missing) at +70 µs.
        #expect(messages.count == 4)
        #expect(Array(messages.prefix(3)) == ["cart has 3 items (alice) 7 ff", "interval", "uploaded batch 1"])
        #expect(messages.last?.hasPrefix("<decode: ") == true)
    }

    @Test func archiveWithoutALogArchiveIsRefused() throws {
        let folder = try TemporaryDirectory("apple-sysdiagnose")
        let top = folder.file("sysdiagnose_x")
        try FileManager.default.createDirectory(at: top, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: top.appendingPathComponent("ps.txt"))
        let archive = folder.file("other.tar.gz").path
        _ = try run("/bin/tar", ["-czf", archive, "-C", folder.path, "sysdiagnose_x"])
        let output = try run(BuiltProducts.path("diag"), ["show", archive], environment: ["XDG_CACHE_HOME": folder.file("cache").path])
        #expect(output.status == 65)
        #expect(output.stderr.contains("neither a diag bundle"))
    }

    @Test func importBringsTheArchiveIntoAStore() throws {
        let folder = try TemporaryDirectory("apple-import")
        let (archive, synthetic) = try Self.sysdiagnose(in: folder)
        let store = folder.file("store").path
        let environment = ["XDG_CACHE_HOME": folder.file("cache").path]
        let imported = try run(BuiltProducts.path("diag"), ["import", "--store", store, archive], environment: environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("Imported 13 records from 1 file"))
        // The store answers the same query as the archive read directly.
        let arguments = ["--info", "--debug", "--style", "ndjson", "--predicate", "messageType >= error OR eventType == activityCreateEvent"]
        let fromStore = try run(BuiltProducts.path("diag"), ["show", store] + arguments)
        let direct = try run(BuiltProducts.path("diag"), ["show", synthetic.path] + arguments)
        #expect(fromStore.status == 0 && direct.status == 0)
        #expect(fromStore.stdout == direct.stdout)
        #expect(fromStore.stdout.split(separator: "\n").count == 4)
    }

    @Test func statsCountsTheRecordsOfATraceV3File() throws {
        let synthetic = try SyntheticArchive()
        let output = try run(BuiltProducts.path("diag"), ["stats", synthetic.tracePath])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.hasPrefix("Total: 13 events"))
        #expect(output.stdout.contains("syncd"))
    }

    @Test func everyStyleReadsATraceV3File() throws {
        let synthetic = try SyntheticArchive()
        for style in ["default", "compact", "syslog", "json", "ndjson"] {
            let output = try run(BuiltProducts.path("diag"), ["show", synthetic.tracePath, "--style", style, "--info", "--debug"])
            #expect(output.status == 0, "\(style): \(output.stderr)")
            #expect(output.stdout.contains("cart has 3 items (alice) 7 ff"), "\(style)")
        }
    }
}
