import Foundation
import Testing
import TestSupport

/// `diag collect --size`, as `log collect --size`: the bundle stays within the size, keeps the
/// newest records that fit, and says what it left out. On a real store written by `diag import`.
@Suite struct CollectSizeTests {
    static let recordCount = 20_000

    /// A store of generated records of the four components, ten minutes from a fixed start.
    static func store(in folder: TemporaryDirectory) throws -> String {
        let records = folder.file("records.ndjson").path
        let generated = try diag(["generate", "--count", String(recordCount), "--seed", "16", "--start", "2026-12-01 10:00:00Z", "--output", records])
        #expect(generated.status == 0, "\(generated.stderr)")
        let store = folder.file("store").path
        let imported = try diag(["import", "--store", store, records])
        #expect(imported.status == 0, "\(imported.stderr)")
        return store
    }

    static func everyRecord(_ source: String) throws -> [Substring] {
        let shown = try diag(["show", source, "--info", "--debug", "--signpost", "--style", "ndjson", "--no-pager"])
        #expect(shown.status == 0, "\(shown.stderr)")
        return shown.stdout.split(separator: "\n")
    }

    static func extract(_ bundle: String, into folder: TemporaryDirectory) throws -> URL {
        let extracted = folder.file("extracted")
        try FileManager.default.createDirectory(at: extracted, withIntermediateDirectories: true)
        #expect(try run("/usr/bin/tar", ["xzf", bundle, "-C", extracted.path]).status == 0)
        let top = try #require(try FileManager.default.contentsOfDirectory(atPath: extracted.path).first)
        return extracted.appendingPathComponent(top)
    }

    @Test func aBoundedBundleKeepsTheNewestRecordsAndSaysWhatItLeftOut() throws {
        let folder = try TemporaryDirectory("collect-size")
        let store = try Self.store(in: folder)
        let limit = 300 * 1024
        let made = try diag(["collect", "--store", store, "--output", folder.file("bounded.tar.gz").path, "--size", "300K"])
        #expect(made.status == 0, "\(made.stderr)")
        let bundle = folder.file("bounded.tar.gz").path
        let size = try #require(try FileManager.default.attributesOfItem(atPath: bundle)[.size] as? Int)
        #expect(size <= limit, "the bundle takes \(size) bytes, over --size \(limit)")

        let root = try Self.extract(bundle, into: folder)
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("manifest.json"))) as? [String: Any])
        let sizeLimit = try #require(manifest["sizeLimit"] as? [String: Any])
        let kept = try #require(sizeLimit["keptRecords"] as? Int)
        let leftOut = try #require(sizeLimit["leftOutRecords"] as? Int)
        #expect(sizeLimit["bytes"] as? Int == limit)
        #expect(kept > 0 && leftOut > 0)
        #expect(kept + leftOut == Self.recordCount)
        #expect((manifest["recordCounts"] as? [String: Any])?["total"] as? Int == kept)
        let note = try String(contentsOf: root.appendingPathComponent("summaries/left-out.txt"), encoding: .utf8)
        #expect(note.contains("Kept: \(kept) records, from \(sizeLimit["keptFrom"] as? String ?? "?") on."))
        #expect(note.contains("Left out: \(leftOut) older records, from 2026-12-01T10:00:00"))
        #expect(made.stderr.contains("--size left out \(leftOut) older records"))

        // The bundle holds exactly the store's newest `kept` records.
        let all = try Self.everyRecord(store)
        #expect(all.count == Self.recordCount)
        #expect(try Self.everyRecord(bundle) == Array(all.suffix(kept)))
        let verified = try diag(["verify", bundle])
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
    }

    @Test func aSizeThatHoldsEverythingLeavesNothingOut() throws {
        let folder = try TemporaryDirectory("collect-size-roomy")
        let store = try Self.store(in: folder)
        let bundle = folder.file("roomy.tar.gz").path
        let made = try diag(["collect", "--store", store, "--output", bundle, "--size", "64M"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(!made.stderr.contains("left out"))
        let root = try Self.extract(bundle, into: folder)
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("manifest.json"))) as? [String: Any])
        #expect(manifest["sizeLimit"] == nil)
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("summaries/left-out.txt").path))
        #expect(try Self.everyRecord(bundle).count == Self.recordCount)
    }

    @Test func aSizeTooSmallForAnyBundleFailsAndLeavesNone() throws {
        let folder = try TemporaryDirectory("collect-size-tiny")
        let store = try Self.store(in: folder)
        let output = folder.file("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let made = try diag(["collect", "--store", store, "--output", output.path, "--size", "1K"])
        #expect(made.status == 1)
        #expect(made.stderr.contains("Error: --size 1024 is too small: the bundle took"), "\(made.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).isEmpty)
    }

    @Test(arguments: ["ten", "0", "-5M", "12Q"])
    func aSizeThatIsNotOneIsBadUsage(text: String) throws {
        let made = try diag(["collect", "--store", "/nonexistent/store", "--size", text])
        #expect(made.status == 64)
        #expect(made.stderr.contains("--size '\(text)' is not a size; write a number of bytes with an optional K, M, G or T"), "\(made.stderr)")
    }
}
