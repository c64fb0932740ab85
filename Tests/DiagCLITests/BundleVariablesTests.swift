import Foundation
import Testing
import TestSupport

/// A bundle answers its saved predicates as it is: `$STORE_ID` and friends come from the
/// identifiers its manifest records, `--var` overrides them, and an unpacked folder reads the same.
@Suite struct BundleVariablesTests {
    @Test func manifestIdentifiersBindPredicateVariables() throws {
        let folder = try TemporaryDirectory("diag-bundle-vars")
        let cache = folder.file("cache").path
        let env = ["XDG_CACHE_HOME": cache, "DIAG_SOCKET": folder.file("no-daemon.sock").path]
        let data = folder.file("g.ndjson").path
        #expect(try diag(["generate", "--count", "2000", "--seed", "11", "--output", data]).status == 0)
        let store = folder.file("store").path
        #expect(try diag(["import", "--store", store, data]).status == 0)
        let text = try String(contentsOfFile: data, encoding: .utf8)
        let storeID = try #require(text.firstMatch(of: /activity\.export\.([0-9A-F-]{36})/)?.1).description

        let collected = try diag(["collect", "--store", store, "--output", folder.path, "--var", "STORE_ID=\(storeID)"], environment: env)
        #expect(collected.status == 0, "\(collected.stderr)")
        let bundle = try #require(collected.stdout.split(separator: "\n").last).description

        let predicate = "message CONTAINS[cd] $STORE_ID"
        let expected = try diag(["show", "--info", "--style", "ndjson", "--predicate", predicate, "--var", "STORE_ID=\(storeID)", store])
        let expectedCount = expected.stdout.split(separator: "\n").count
        #expect(expectedCount > 0)

        let fromManifest = try diag(["show", "--info", "--style", "ndjson", "--predicate", predicate, bundle], environment: env)
        #expect(fromManifest.status == 0, "\(fromManifest.stderr)")
        #expect(fromManifest.stdout == expected.stdout)

        // --var wins over the manifest.
        let overridden = try diag(["show", "--info", "--style", "ndjson", "--predicate", predicate, "--var", "STORE_ID=not-in-any-message", bundle], environment: env)
        #expect(overridden.status == 0)
        #expect(overridden.stdout.isEmpty)

        // An unpacked folder is a bundle too.
        let unpacked = folder.file("unpacked").path
        try FileManager.default.createDirectory(atPath: unpacked, withIntermediateDirectories: true)
        #expect(try run("/usr/bin/tar", ["-xzf", bundle, "-C", unpacked]).status == 0)
        let fromFolder = try diag(["show", "--info", "--style", "ndjson", "--predicate", predicate, unpacked], environment: env)
        #expect(fromFolder.status == 0, "\(fromFolder.stderr)")
        #expect(fromFolder.stdout == expected.stdout)

        // A name the manifest does not hold is still an error that names it.
        let unbound = try diag(["show", "--predicate", "message CONTAINS $CONTAINER", bundle], environment: env)
        #expect(unbound.status == 65)
        #expect(unbound.stderr.contains("$CONTAINER"))
    }

    @Test func aFolderThatIsNeitherStoreNorBundleIsRefused() throws {
        let folder = try TemporaryDirectory("diag-neither")
        let output = try diag(["show", folder.path])
        #expect(output.status != 0)
        #expect(output.stderr.contains("neither a log store"))
    }

    @Test func streamAndConfigAreSubcommands() throws {
        let help = try diag(["--help"])
        #expect(help.stdout.contains("stream"))
        #expect(help.stdout.contains("config"))
        let folder = try TemporaryDirectory("diag-stream")
        let stream = try diag(["stream"], environment: ["DIAG_SOCKET": folder.file("absent.sock").path])
        #expect(stream.status == 1)
        #expect(stream.stderr.contains("absent.sock"))
    }
}
