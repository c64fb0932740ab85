@testable import DiagCLI
import Foundation
import Testing
import TestSupport

/// `diag show BUNDLE` asks about the bundle three times (whether it is Apple's archive, its
/// manifest's identifiers, its store): the bundle is opened once per process for all three, and
/// opened anew when another file takes its path.
@Suite struct BundleSourceOpenerTests {
    /// A bundle of a few records whose manifest records `STORE_ID=<id>`.
    private func bundle(in folder: TemporaryDirectory, id: String) throws -> String {
        let data = folder.file("\(id).ndjson").path
        #expect(try diag(["generate", "--count", "50", "--seed", "3", "--output", data]).status == 0)
        let store = folder.file("store-\(id)").path
        #expect(try diag(["import", "--store", store, data]).status == 0)
        let output = folder.file("out-\(id)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let collected = try diag(["collect", "--store", store, "--output", output.path + "/", "--var", "STORE_ID=\(id)"],
                                 environment: ["DIAG_SOCKET": folder.file("no-daemon.sock").path])
        #expect(collected.status == 0, "\(collected.stderr)")
        return try #require(collected.stdout.split(separator: "\n").last).description
    }

    @Test func aBundleIsOpenedOnceAndAnotherFileAtItsPathAnew() throws {
        let folder = try TemporaryDirectory("diag-bundle-opener")
        let first = try bundle(in: folder, id: "first")
        let second = try bundle(in: folder, id: "second")
        let path = folder.file("repro.tar.gz").path
        try FileManager.default.copyItem(atPath: first, toPath: path)
        let opener = BundleSourceOpener(cacheDirectory: folder.file("cache"))

        #expect(try opener.appleLogArchive(inArchive: path) == nil)
        #expect(try opener.identifiers(ofBundle: path)["STORE_ID"] == "first")
        let store = try opener.openStore(inBundle: path)
        #expect(FileManager.default.fileExists(atPath: store.storeURL.appendingPathComponent("Info.json").path))
        // The manifest was read once: the unpacked copy's manifest, spoiled now, is not read
        // again, by this opener or another of the same process (the CLI makes several).
        let manifest = store.storeURL.deletingLastPathComponent().appendingPathComponent("manifest.json")
        let original = try Data(contentsOf: manifest)
        try Data("not json".utf8).write(to: manifest)
        #expect(try BundleSourceOpener(cacheDirectory: folder.file("cache")).identifiers(ofBundle: path)["STORE_ID"] == "first")
        #expect(try opener.openStore(inBundle: path).storeURL == store.storeURL)
        try original.write(to: manifest)

        // Another archive renamed over the path: its own manifest, not the first one's.
        let staged = folder.file("staged.tar.gz").path
        try FileManager.default.copyItem(atPath: second, toPath: staged)
        #expect(rename(staged, path) == 0)
        #expect(try opener.appleLogArchive(inArchive: path) == nil)
        #expect(try opener.identifiers(ofBundle: path)["STORE_ID"] == "second")
        #expect(try opener.openStore(inBundle: path).storeURL != store.storeURL)
    }
}
