import DiagBundle
import Foundation
import Testing
import TestSupport

/// `diag verify` on archives: intact, one byte changed, and usage errors of `collect`.
struct VerifyCommandTests {
    func collect(_ folder: TemporaryDirectory, compression: String) throws -> String {
        let store = folder.file("store").path
        let imported = try run(BuiltProducts.path("diag"), ["import", "--store", store, try #require(BuiltProducts.corpusFile("Mac_2k.log"))])
        #expect(imported.status == 0 || imported.status == 65, "\(imported.stderr)")
        let collected = try run(BuiltProducts.path("diag"), ["collect", "--store", store, "--output", folder.path, "--compression", compression],
                                environment: ["XDG_CACHE_HOME": folder.file("cache").path])
        #expect(collected.status == 0, "\(collected.stderr)")
        return try #require(collected.stdout.split(separator: "\n").last.map(String.init))
    }

    @Test func oneChangedByteInAnUncompressedBundleNamesTheFile() throws {
        let folder = try TemporaryDirectory("diag-verify")
        let bundle = try collect(folder, compression: "none")
        let environment = ["XDG_CACHE_HOME": folder.file("cache").path]
        #expect(try run(BuiltProducts.path("diag"), ["verify", bundle], environment: environment).status == 0)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: bundle))
        let marker = Data("<!DOCTYPE html>".utf8)
        let offset = try #require(bytes.range(of: marker)).lowerBound + 2
        bytes[offset] ^= 0x20
        try bytes.write(to: URL(fileURLWithPath: bundle))
        let verified = try run(BuiltProducts.path("diag"), ["verify", bundle], environment: environment)
        #expect(verified.status == 65)
        #expect(verified.stderr.contains("report.html: SHA-256"), "\(verified.stderr)")
        #expect(verified.stderr.contains("1 problem found"))
    }

    @Test func oneChangedByteInACompressedBundleIsRefused() throws {
        let folder = try TemporaryDirectory("diag-verify")
        let bundle = try collect(folder, compression: "gzip")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: bundle))
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: bundle))
        let verified = try run(BuiltProducts.path("diag"), ["verify", bundle], environment: ["XDG_CACHE_HOME": folder.file("cache").path])
        #expect(verified.status == 65, "\(verified.stderr)")
        #expect(listTree(folder.file("cache")).allSatisfy { !$0.contains(".verify-") })
    }

    @Test func aStoreFileThatIsNotADatabaseIsBadInput() throws {
        let folder = try TemporaryDirectory("diag-store-file")
        let store = folder.file("store").path
        _ = try run(BuiltProducts.path("diag"), ["import", "--store", store, try #require(BuiltProducts.corpusFile("Mac_2k.log"))])
        let notes = try folder.write("Model.sqlite", "not a database, just text that is long enough to have a header\n")
        let result = try run(BuiltProducts.path("diag"), ["collect", "--store", store, "--store-file", notes, "--output", folder.path])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("Model.sqlite is not an SQLite database"), "\(result.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("diagnose_") || $0.hasPrefix(".diagnose_") }
        #expect(left.isEmpty)
    }

    @Test(arguments: [
        (["collect", "--last", "5m", "--start", "2026-11-29"], "--last and --start"),
        (["collect", "--last", "five"], "--last"),
        (["collect", "--start", "2026-11-29 10:00", "--end", "2026-11-29 09:00"], "must come after"),
        (["collect", "--compression", "rar"], "rar"),
        (["collect", "--output", "/tmp/x.tar.gz", "--compression", "zstd"], "make them agree"),
        (["collect", "--store-file", "/nonexistent/Model.sqlite"], "--store-file"),
        (["feedback", "--predicate", "process == 1"], "--title"),
    ])
    func badUsageExits64(arguments: [String], mentions: String) throws {
        let result = try run(BuiltProducts.path("diag"), arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(mentions), "\(result.stderr)")
    }
}
