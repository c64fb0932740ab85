@testable import DiagBundle
import DiagModel
import DiagStore
import Foundation
import Testing
import TestSupport

/// Bundles read back through `diag show`, and feedback bundles.
struct BundleQueryTests {
    static let base: Int64 = 1_795_945_200 * 1_000_000_000
    static let minute: Int64 = 60_000_000_000

    /// A store of 2,400 records over two hours from three components, in several chunks.
    func makeStore(_ folder: TemporaryDirectory) throws -> String {
        let path = folder.file("store").path
        let store = try LogStore.open(at: URL(fileURLWithPath: path), create: true, options: .init(chunkSizeLimit: 96 * 1024))
        let processes = ["synccore", "schedulerd", "transportd"]
        let levels: [MessageType] = [.default, .info, .debug, .error, .default, .fault]
        var batch: [LogRecord] = []
        for index in 0..<2400 {
            batch.append(LogRecord(
                timestamp: Self.base + Int64(index) * 3 * 1_000_000_000, messageType: levels[index % levels.count],
                process: processes[index % 3], processID: Int64(100 + index % 3), sender: "SyncKit",
                subsystem: "com.example.\(processes[index % 3])", category: "engine",
                eventMessage: "step \(index) for alice@example.com via 10.1.2.\(index % 7) host build-07.corp.example:443",
                metadata: ["storeIdentifier": .string("S-\(index % 4)")]))
            if batch.count == 100 { try store.append(batch); batch.removeAll() }
        }
        try store.append(batch)
        try store.close()
        return path
    }

    func diag(_ arguments: [String], cache: TemporaryDirectory) throws -> ProcessOutput {
        try run(BuiltProducts.path("diag"), arguments, environment: ["XDG_CACHE_HOME": cache.path, "TZ": "UTC"])
    }

    @Test(arguments: [BundleCompression.gzip, .zstd, .none])
    func showOnTheBundleGivesTheStoresRecordsForTheWindow(compression: BundleCompression) throws {
        let folder = try TemporaryDirectory("diag-show-bundle")
        let store = try makeStore(folder)
        let start = "@\((Self.base + 30 * Self.minute) / 1_000_000_000)"
        let end = "@\((Self.base + 90 * Self.minute) / 1_000_000_000)"
        let collected = try diag(["collect", "--store", store, "--start", start, "--end", end,
                                  "--output", folder.path + "/", "--compression", compression.rawValue], cache: folder)
        #expect(collected.status == 0, "\(collected.stderr)")
        let bundle = try #require(collected.stdout.split(separator: "\n").last.map(String.init))
        #expect(bundle.hasSuffix(compression.fileExtension))

        let fromStore = try diag(["show", "--info", "--debug", "--style", "ndjson", "--start", start, "--end", end, store], cache: folder)
        let fromBundle = try diag(["show", "--info", "--debug", "--style", "ndjson", bundle], cache: folder)
        #expect(fromStore.status == 0, "\(fromStore.stderr)")
        #expect(fromBundle.status == 0, "\(fromBundle.stderr)")
        #expect(fromStore.stdout.split(separator: "\n").count == 1200)
        #expect(fromBundle.stdout == fromStore.stdout)

        // Unpacked once into the cache, keyed by the archive's digest, and reused.
        let again = try diag(["show", "--style", "compact", bundle], cache: folder)
        #expect(again.status == 0)
        let cached = try FileManager.default.contentsOfDirectory(atPath: folder.file("diag/bundles").path).filter { !$0.hasPrefix(".") && $0 != "index" }
        #expect(cached == [SHA256.hexDigest(of: Array(try Data(contentsOf: URL(fileURLWithPath: bundle))))])

        let manifest = try BundleReader.open(bundle, cache: BundleCache(directory: folder.file("diag/bundles"))).manifest
        #expect(manifest.recordCounts["total"] == 1200)
        #expect(manifest.windowStart == Self.base + 30 * Self.minute)
        let verified = try diag(["verify", bundle], cache: folder)
        #expect(verified.status == 0, "\(verified.stderr)")
    }

    @Test func aHostileBundleIsRefusedByShowWithStatus65() throws {
        let folder = try TemporaryDirectory("diag-show-hostile")
        let archive = folder.file("evil.tar.gz")
        try makeArchive(archive) { writer in
            try writeMinimalBundle(writer)
            try writer.writeHeader(path: "diagnose_test/escape", fileType: 0o120000, permissions: 0o777, size: 0, symlinkTarget: "/")
        }
        let shown = try diag(["show", archive.path], cache: folder)
        #expect(shown.status == 65, "\(shown.stderr)")
        #expect(shown.stderr.contains("'diagnose_test/escape'"))
        #expect(listTree(folder.file("diag/bundles")) == [])
    }

    @Test func feedbackKeepsTheSelectedRecordsRedactedAndTheMapOutside() throws {
        let folder = try TemporaryDirectory("diag-feedback")
        let store = try makeStore(folder)
        let notes = try folder.write("notes.txt", "Sync stalls after the transport reconnects.\n")
        let predicateFile = try folder.write("errors.predicate", "# errors of the transport\nprocess == \"transportd\" AND messageType >= error\n")
        let made = try diag(["feedback", "--title", "Stalled sync", "--notes", notes, "--predicate-file", predicateFile,
                             "--store", store, "--redact", "--output", folder.file("fb.tar.gz").path], cache: folder)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.split(separator: "\n").last == Substring(folder.file("fb.tar.gz").path))
        let opened = try BundleReader.open(folder.file("fb.tar.gz").path, cache: BundleCache(directory: folder.file("c")))
        #expect(opened.manifest.title == "Stalled sync")
        #expect(opened.manifest.redacted)
        let records = try LogStore.open(at: opened.storeDirectory, options: .readOnly).records().all()
        // transportd logs every third record; of those, levels cycle by six, so every other one is a Fault.
        #expect(records.count == 400)
        #expect(records.allSatisfy { $0.process == "transportd" && $0.messageType >= .error })
        #expect(records.allSatisfy { !$0.eventMessage.contains("alice@example.com") && !$0.eventMessage.contains("10.1.2.") })
        #expect(records.first?.eventMessage.contains("<email-1>") == true)
        #expect(records.first?.eventMessage.contains(":443") == true)
        #expect(records.first?.eventMessage.contains("build-07") == false)
        let paths = opened.manifest.files.map(\.path)
        #expect(paths.contains("notes.txt"))
        #expect(paths.contains("predicates/errors.predicate"))
        #expect(!paths.contains { $0.contains("redaction") })
        let map = try String(contentsOfFile: folder.file("fb.tar.gz.redaction-map.json").path, encoding: .utf8)
        #expect(map.contains("alice@example.com"))
    }
}
