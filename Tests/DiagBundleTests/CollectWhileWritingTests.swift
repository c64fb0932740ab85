@testable import DiagBundle
import DiagModel
import DiagStore
import Foundation
import Testing
import TestSupport

/// `diag collect` from a store a real diagd is writing, and from a WAL-mode store file another
/// process is writing: the snapshots are sound and hold every row committed before the collect.
@Suite(.serialized)
struct CollectWhileWritingTests {
    @Test func collectWhileDiagdAndAComponentWrite() throws {
        let folder = try TemporaryDirectory("diag-collect")
        let daemon = try RunningDaemon(arguments: ["--chunk-size", "256K"], directory: folder)
        defer { daemon.stop() }

        // Rows committed before the collect begins.
        let client = try DaemonClient(path: daemon.socketPath)
        let levels = ["Default", "Info", "Debug", "Error", "Fault"]
        for index in 0..<3000 {
            client.write(recordLine("committed \(index) mail bob@example.com", level: levels[index % levels.count]))
        }
        try client.sync(1)
        let component = folder.file("Modèle données.sqlite").path
        _ = try sqlite(component, "PRAGMA journal_mode = WAL; CREATE TABLE items (id INTEGER PRIMARY KEY, value INTEGER, payload TEXT);")
        let before = try SQLiteWriterProcess(database: component, firstRow: 0, rowCount: 500)
        #expect(before.wait() == 0)

        // Writers that go on during the collect.
        let componentWriter = try SQLiteWriterProcess(database: component, firstRow: 500, rowCount: 5_000)
        let stop = LockedFlag()
        let socketPath = daemon.socketPath
        let daemonWriter = Thread {
            guard let later = try? DaemonClient(path: socketPath) else { return }
            var index = 0
            while !stop.isSet {
                for _ in 0..<200 { later.write(recordLine("later \(index)")); index += 1 }
                _ = try? later.sync(Int64(index))
            }
        }
        daemonWriter.start()

        let output = folder.file("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let collected = try run(BuiltProducts.path("diag"), [
            "collect", "--store", daemon.storePath, "--output", output.path, "--store-file", component,
            "--compression", "zstd", "--var", "storeIdentifier=ABC-123",
        ], environment: ["DIAG_SOCKET": daemon.socketPath, "XDG_CACHE_HOME": folder.file("cache").path])
        stop.set()
        _ = componentWriter.wait()
        #expect(collected.status == 0, "\(collected.stderr)")
        let bundlePath = try #require(collected.stdout.split(separator: "\n").last.map(String.init))
        #expect(bundlePath.hasPrefix(output.path + "/diagnose_"))
        #expect(bundlePath.hasSuffix(".tar.zst"))

        // The system tar reads it.
        let listing = try run("/usr/bin/tar", ["-tf", bundlePath], environment: ["LC_ALL": "C.UTF-8"])
        #expect(listing.status == 0, "\(listing.stderr)")
        let extracted = folder.file("extracted")
        try FileManager.default.createDirectory(at: extracted, withIntermediateDirectories: true)
        let untar = try run("/usr/bin/tar", ["-xf", bundlePath, "-C", extracted.path], environment: ["LC_ALL": "C.UTF-8"])
        #expect(untar.status == 0, "\(untar.stderr)")
        let top = try #require(try FileManager.default.contentsOfDirectory(atPath: extracted.path).first)
        let root = extracted.appendingPathComponent(top)
        let manifest = try BundleManifest(jsonData: try Data(contentsOf: root.appendingPathComponent("manifest.json")), source: "manifest")
        #expect(manifest.identifiers == ["storeIdentifier": "ABC-123"])
        #expect(manifest.files.contains { $0.path == "report.html" })
        #expect(manifest.files.contains { $0.path == "summaries/stats.json" })

        // Every log chunk is sound, and every record committed before the collect is there,
        // Debug ones from diagd's memory included.
        var committed = 0
        let persist = root.appendingPathComponent("system_logs.logarchive/Persist")
        let chunks = try FileManager.default.contentsOfDirectory(atPath: persist.path).filter { $0.hasSuffix(".chunk.sqlite") }
        #expect(chunks.count > 1)
        for chunk in chunks {
            let path = persist.appendingPathComponent(chunk).path
            #expect(try sqlite(path, "PRAGMA integrity_check") == "ok")
            committed += Int(try sqlite(path, "SELECT count(DISTINCT eventMessage) FROM records WHERE eventMessage LIKE 'committed %'")) ?? 0
        }
        #expect(committed == 3000)
        #expect(manifest.recordCounts["Debug"] ?? 0 >= 600)

        // The component's store: sound, every row committed before, and its side files as found.
        let storeFolder = root.appendingPathComponent("stores/Modèle données")
        let snapshot = storeFolder.appendingPathComponent("Modèle données.sqlite").path
        #expect(try sqlite(snapshot, "PRAGMA integrity_check") == "ok")
        #expect(try sqlite(snapshot, "SELECT count(*) FROM items WHERE value < 500") == "500")
        #expect(FileManager.default.fileExists(atPath: storeFolder.appendingPathComponent("as-found/Modèle données.sqlite-wal").path))
        #expect(FileManager.default.fileExists(atPath: storeFolder.appendingPathComponent("as-found/Modèle données.sqlite-shm").path))

        // diag verify passes, then fails once one byte of a file changes.
        let verified = try run(BuiltProducts.path("diag"), ["verify", bundlePath], environment: ["XDG_CACHE_HOME": folder.file("cache").path])
        #expect(verified.status == 0, "\(verified.stderr)")
        let verifiedFolder = try run(BuiltProducts.path("diag"), ["verify", root.path])
        #expect(verifiedFolder.status == 0, "\(verifiedFolder.stderr)")
        let errorsFile = root.appendingPathComponent("summaries/errors.txt")
        var bytes = try Data(contentsOf: errorsFile)
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: errorsFile)
        let tampered = try run(BuiltProducts.path("diag"), ["verify", root.path])
        #expect(tampered.status == 65)
        #expect(tampered.stderr.contains("summaries/errors.txt: SHA-256"), "\(tampered.stderr)")
    }
}

/// A flag one thread sets and another reads.
final class LockedFlag: @unchecked Sendable {
    // Safe: every access goes through `lock`.
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
