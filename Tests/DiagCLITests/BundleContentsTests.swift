import Foundation
import Testing
import TestSupport

/// A bundle holds only what its manifest lists for the reader (and the manifest itself).
@Suite struct BundleContentsTests {
    @Test(arguments: [["collect"], ["feedback", "--title", "t", "--predicate", "process == \"p\""]])
    func everyArchivedFileIsInTheManifest(command: [String]) throws {
        let folder = try TemporaryDirectory("diag-bundle-contents")
        let store = folder.file("store").path
        #expect(try diag(["import", "--store", store, try folder.write("three.ndjson", TimeHabitsTests.threeRecords)]).status == 0)
        let made = try diag(command + ["--store", store, "--output", folder.path])
        #expect(made.status == 0, "\(made.stderr)")
        let bundle = try #require(made.stdout.split(separator: "\n").last).description
        let listing = try run("/usr/bin/tar", ["tzf", bundle])
        #expect(listing.status == 0)
        let files = listing.stdout.split(separator: "\n").filter { !$0.hasSuffix("/") }
            .map { $0.split(separator: "/", maxSplits: 1).last.map(String.init) ?? "" }
        #expect(!files.contains { $0.hasSuffix("writer.lock") }, "\(files)")
        let extracted = folder.file("x").path
        try FileManager.default.createDirectory(atPath: extracted, withIntermediateDirectories: true)
        #expect(try run("/usr/bin/tar", ["xzf", bundle, "-C", extracted]).status == 0)
        let top = try #require(try FileManager.default.contentsOfDirectory(atPath: extracted).first)
        let manifestData = try Data(contentsOf: URL(fileURLWithPath: "\(extracted)/\(top)/manifest.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: manifestData) as? [String: Any])
        let listed = Set((manifest["files"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String })
        #expect(Set(files) == listed.union(["manifest.json"]), "archived but not listed: \(Set(files).subtracting(listed))")
    }
}
