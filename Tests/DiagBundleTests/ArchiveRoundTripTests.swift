@testable import DiagBundle
import Foundation
import Testing
import TestSupport

struct ArchiveRoundTripTests {
    @Test(arguments: BundleCompression.allCases)
    func filesComeBackByteForByteWithTheArchiveDigest(compression: BundleCompression) throws {
        let folder = try TemporaryDirectory()
        let source = try folder.write("big.bin", String(repeating: "0123456789abcdef", count: 200_000))
        let archive = folder.file("a" + compression.fileExtension)
        var digests: [BundleFileDigest] = []
        try makeArchive(archive, compression: compression) { writer in
            try writer.addDirectory("top")
            digests.append(try writer.addFile("top/big.bin", from: URL(fileURLWithPath: source)))
            digests.append(try writer.addFile("top/Modèle Ünïcode 日本.sqlite", contents: Array("é".utf8)))
        }
        let out = folder.file("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let result = try ArchiveExtractor(limits: ExtractionLimits()).extract(archive.path, into: out)
        #expect(result.files["top/big.bin"] == BundleFileDigest(path: "top/big.bin", size: digests[0].size, sha256: digests[0].sha256))
        #expect(result.archiveSHA256 == SHA256.hexDigest(of: Array(try Data(contentsOf: archive))))
        #expect(try Data(contentsOf: out.appendingPathComponent("top/big.bin")) == Data(contentsOf: URL(fileURLWithPath: source)))
        #expect(try String(contentsOf: out.appendingPathComponent("top/Modèle Ünïcode 日本.sqlite"), encoding: .utf8) == "é")
        #expect(digests[0].size == 3_200_000)
        #expect(digests[0].sha256 == SHA256.hexDigest(of: Array(try Data(contentsOf: URL(fileURLWithPath: source)))))
    }

    @Test func systemTarListsAndExtractsANonASCIIName() throws {
        let folder = try TemporaryDirectory()
        let archive = folder.file("names.tar.gz")
        try makeArchive(archive) { writer in
            try writer.addDirectory("top")
            try writer.addFile("top/Café.sqlite", contents: Array("x".utf8))
        }
        let listing = try run("/usr/bin/tar", ["-tzf", archive.path], environment: ["LC_ALL": "C.UTF-8"])
        #expect(listing.status == 0)
        #expect(listing.stdout.contains("top/Café.sqlite"))
        let extracted = try run("/usr/bin/tar", ["-xzf", archive.path, "-C", folder.path], environment: ["LC_ALL": "C.UTF-8"])
        #expect(extracted.status == 0, "\(extracted.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.file("top/Café.sqlite").path))
    }
}
