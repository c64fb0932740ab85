@testable import DiagBundle
import Foundation
import Testing
import TestSupport

/// Decompression bombs and oversized metadata are refused as they stream (issue 13, items 2, 3).
struct ExtractionBoundTests {
    /// A bundle whose manifest comes first and lists `listed`; the entries are written after it.
    func manifestFirst(_ archive: URL, listed: [(String, Int64)], entries: [(String, Int)]) throws {
        try makeArchive(archive) { writer in
            var manifest = BundleManifest(kind: "collect", toolVersion: "test", host: "host", kernel: "Linux", created: 1)
            manifest.files = listed.map { BundleFileDigest(path: $0.0, size: $0.1, sha256: String(repeating: "0", count: 64)) }
            try writer.addDirectory("diagnose_test")
            try writer.addFile("diagnose_test/manifest.json", contents: Array(try manifest.jsonData()))
            for (path, size) in entries {
                try writer.addFile("diagnose_test/\(path)", contents: [UInt8](repeating: 0, count: size))
            }
        }
    }

    @Test func anEntryTheManifestDoesNotListIsRefusedAsItComes() throws {
        let sandbox = try TemporaryDirectory("diag-bomb")
        let archive = sandbox.file("bomb.tar.gz")
        try manifestFirst(archive, listed: [("summaries/errors.txt", 10)], entries: [("summaries/errors.txt", 10), ("zeros.bin", 900_000)])
        let cache = BundleCache(directory: sandbox.file("cache"), limits: ExtractionLimits(maximumTotalSize: 100 << 20))
        let error = #expect(throws: BundleError.self) { try BundleReader.open(archive.path, cache: cache) }
        #expect(error?.exitCode == 65)
        #expect(error?.message.contains("entry 'diagnose_test/zeros.bin': it is not listed in the manifest, which came before it") == true, "\(error?.message ?? "")")
        #expect(listTree(sandbox.file("cache")).allSatisfy { !$0.hasPrefix(".unpack-") })
    }

    @Test func anEntryLargerThanTheManifestSaysIsRefused() throws {
        let sandbox = try TemporaryDirectory("diag-bomb")
        let archive = sandbox.file("bomb.tar.gz")
        try manifestFirst(archive, listed: [("summaries/errors.txt", 10)], entries: [("summaries/errors.txt", 900_000)])
        let cache = BundleCache(directory: sandbox.file("cache"), limits: ExtractionLimits(maximumTotalSize: 100 << 20))
        let error = #expect(throws: BundleError.self) { try BundleReader.open(archive.path, cache: cache) }
        #expect(error?.message.contains("larger than the manifest says (10 bytes)") == true, "\(error?.message ?? "")")
    }

    @Test func theWholeUnpackIsBoundedByDefaultAndTheEnvironmentMovesTheBound() throws {
        let sandbox = try TemporaryDirectory("diag-bomb")
        let archive = sandbox.file("bomb.tar.gz")
        // The manifest last, as collect writes it: only the total bound can stop the zeros.
        try makeArchive(archive) { writer in
            try writer.addFile("diagnose_test/zeros.bin", contents: [UInt8](repeating: 0, count: 3 << 20))
            try writeMinimalBundle(writer)
        }
        let shown = try diag(["show", archive.path], cacheIn: sandbox, environment: [ExtractionLimits.environmentVariable: "2M"])
        #expect(shown.status == 65, "\(shown.stderr)")
        #expect(shown.stderr.contains("entry 'diagnose_test/zeros.bin': the archive unpacks to more than the bound of 2097152 bytes"), "\(shown.stderr)")
        #expect(cachedBundles(sandbox).isEmpty)
        let raised = try diag(["verify", archive.path], cacheIn: sandbox, environment: [ExtractionLimits.environmentVariable: "8M"])
        #expect(raised.stderr.contains("zeros.bin: not listed in the manifest"), "\(raised.stderr)")
    }

    @Test func theDefaultBoundIsAQuarterOfTheFreeSpaceWhenThatIsLess() throws {
        let sandbox = try TemporaryDirectory("diag-bomb")
        let free = try #require(ExtractionLimits.freeSpace(at: sandbox.path))
        let unbounded = ExtractionLimits(maximumTotalSize: Int64.max)
        #expect(abs(unbounded.totalBound(destination: sandbox.path).bytes - free / 4) < 64 << 20)
        #expect(ExtractionLimits().maximumTotalSize == ExtractionLimits.defaultTotalSize || ProcessInfo.processInfo.environment[ExtractionLimits.environmentVariable] != nil)
        // $DIAG_UNPACK_LIMIT is read by DiagProtocol's size reader; what it refuses leaves the default.
        func configured(_ value: String) -> Int64 { ExtractionLimits.configuredTotalSize(environment: [ExtractionLimits.environmentVariable: value]) }
        #expect(configured("4G") == 4 << 30)
        #expect(configured("512k") == 512 << 10)
        #expect(configured("-1") == ExtractionLimits.defaultTotalSize)
        #expect(configured("9999999999T") == ExtractionLimits.defaultTotalSize)
    }

    @Test func aManifestOverItsBoundIsRefusedBeforeItIsParsed() throws {
        let sandbox = try TemporaryDirectory("diag-manifest")
        let archive = sandbox.file("big.tar.gz")
        try makeArchive(archive) { writer in
            var manifest = BundleManifest(kind: "collect", toolVersion: "test", host: "host", kernel: "Linux", created: 1)
            manifest.title = String(repeating: "t", count: Int(BundleManifest.maximumFileSize))
            try writer.addFile("diagnose_test/manifest.json", contents: Array(try manifest.jsonData()))
        }
        for command in ["show", "verify"] {
            let result = try diag([command, archive.path], cacheIn: sandbox)
            #expect(result.status == 65, "\(result.stderr)")
            #expect(result.stderr.contains("over the bound of \(BundleManifest.maximumFileSize) bytes for a manifest"), "\(result.stderr)")
        }
    }

    @Test func verifyPrintsTheFirstTwentyProblemsAndACount() throws {
        let sandbox = try TemporaryDirectory("diag-manifest")
        let archive = sandbox.file("many.tar.gz")
        try makeArchive(archive) { writer in
            var manifest = BundleManifest(kind: "collect", toolVersion: "test", host: "host", kernel: "Linux", created: 1)
            manifest.files = (0..<5_000).map { BundleFileDigest(path: "missing/\($0)", size: 1, sha256: String(repeating: "0", count: 64)) }
            try writer.addFile("diagnose_test/manifest.json", contents: Array(try manifest.jsonData()))
        }
        let verified = try diag(["verify", archive.path], cacheIn: sandbox)
        #expect(verified.status == 65)
        let lines = verified.stderr.split(separator: "\n")
        #expect(lines.count == 22, "\(lines.count)")
        #expect(verified.stderr.contains("… and \(5_000 + 4 - 20) more problems"), "\(verified.stderr.suffix(300))")
    }
}
