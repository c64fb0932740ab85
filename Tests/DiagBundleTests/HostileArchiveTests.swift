@testable import DiagBundle
import Foundation
import Testing
import TestSupport

/// Archives built to attack the reader: each must be refused with exit 65, a message naming the
/// entry, and nothing written outside the cache (nor left inside it).
struct HostileArchiveTests {
    struct Case: CustomStringConvertible, Sendable {
        var description: String
        var entry: String
        var reason: String
        var build: @Sendable (ArchiveWriter) throws -> Void
    }

    static let escapeName = "diag-hostile-escape-\(getpid())"

    static let cases: [Case] = [
        Case(description: "absolute path", entry: "/tmp/\(escapeName)", reason: "absolute path") { writer in
            try writeMinimalBundle(writer)
            try writer.addFile("/tmp/\(escapeName)", contents: Array("owned".utf8))
        },
        Case(description: "dot-dot component", entry: "diagnose_test/../../\(escapeName)", reason: "'..' component") { writer in
            try writeMinimalBundle(writer)
            try writer.addFile("diagnose_test/../../\(escapeName)", contents: Array("owned".utf8))
        },
        Case(description: "symbolic link", entry: "diagnose_test/link", reason: "symbolic link") { writer in
            try writeMinimalBundle(writer)
            try writer.writeHeader(path: "diagnose_test/link", fileType: 0o120000, permissions: 0o777, size: 0, symlinkTarget: "/etc")
        },
        Case(description: "hard link", entry: "diagnose_test/hard", reason: "hard link") { writer in
            try writeMinimalBundle(writer)
            try writer.writeHeader(path: "diagnose_test/hard", fileType: 0o100000, permissions: 0o644, size: 0, hardlinkTarget: "etc/passwd")
        },
        Case(description: "character device", entry: "diagnose_test/null", reason: "device") { writer in
            try writeMinimalBundle(writer)
            try writer.writeHeader(path: "diagnose_test/null", fileType: 0o020000, permissions: 0o666, size: 0)
        },
        Case(description: "FIFO", entry: "diagnose_test/pipe", reason: "FIFO") { writer in
            try writeMinimalBundle(writer)
            try writer.writeHeader(path: "diagnose_test/pipe", fileType: 0o010000, permissions: 0o644, size: 0)
        },
        Case(description: "entry over the size bound", entry: "diagnose_test/huge.bin", reason: "over the bound") { writer in
            // Before the manifest, which would refuse it as unlisted: the size bound alone stops it.
            try writer.addFile("diagnose_test/huge.bin", contents: [UInt8](repeating: 0, count: 300_000))
            try writeMinimalBundle(writer)
        },
        Case(description: "decompression bomb", entry: "diagnose_test/part5.bin", reason: "the archive unpacks to more than") { writer in
            for index in 0..<8 {
                try writer.addFile("diagnose_test/part\(index).bin", contents: [UInt8](repeating: 0, count: 200_000))
            }
            try writeMinimalBundle(writer)
        },
        Case(description: "duplicate entry", entry: "diagnose_test/summaries/errors.txt", reason: "appears twice") { writer in
            try writeMinimalBundle(writer)
            try writer.addFile("diagnose_test/summaries/errors.txt", contents: Array("replaced".utf8))
        },
    ]

    /// Limits small enough for tests: 256 KB a file, 1 MB in all.
    static let limits = ExtractionLimits(maximumEntrySize: 256_000, maximumTotalSize: 1_000_000)

    @Test(arguments: cases)
    func refusedWithTheEntryNamedAndNothingWritten(_ hostile: Case) throws {
        let sandbox = try TemporaryDirectory("diag-hostile")
        let archive = sandbox.file("hostile.tar.gz")
        try makeArchive(archive, hostile.build)
        let cache = BundleCache(directory: sandbox.file("cache"), limits: Self.limits)
        let error = #expect(throws: BundleError.self) { try BundleReader.open(archive.path, cache: cache) }
        #expect(error?.exitCode == 65)
        #expect(error?.message.contains("'\(hostile.entry)'") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(hostile.reason) == true, "\(error?.message ?? "")")
        #expect(listTree(sandbox.url) == ["cache", "hostile.tar.gz"])
        #expect(!FileManager.default.fileExists(atPath: "/tmp/\(Self.escapeName)"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.url.deletingLastPathComponent().appendingPathComponent(Self.escapeName).path))
    }

    @Test(arguments: [("truncated", BundleCompression.gzip), ("corrupt", .gzip), ("truncated", .zstd), ("corrupt", .zstd), ("corrupt", .none)])
    func damagedStreamsAreRefused(damage: String, compression: BundleCompression) throws {
        let sandbox = try TemporaryDirectory("diag-hostile")
        let archive = sandbox.file("damaged" + compression.fileExtension)
        try makeArchive(archive, compression: compression) { writer in
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            let noise = (0..<3_000_000).map { _ -> UInt8 in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 33)
            }
            try writeMinimalBundle(writer, extra: [("noise.bin", noise)])
        }
        var bytes = try Data(contentsOf: archive)
        if damage == "truncated" {
            bytes = bytes.prefix(bytes.count / 2)
        } else {
            for offset in stride(from: bytes.count / 2, to: bytes.count / 2 + 64, by: 1) { bytes[offset] ^= 0xA5 }
        }
        try bytes.write(to: archive)
        let cache = BundleCache(directory: sandbox.file("cache"))
        let error = #expect(throws: BundleError.self) { try BundleReader.open(archive.path, cache: cache) }
        #expect(error?.exitCode == 65)
        #expect(error?.message.contains("'diagnose_test/noise.bin'") == true, "\(error?.message ?? "")")
        #expect(listTree(sandbox.url) == ["cache", "damaged" + compression.fileExtension])
    }

    @Test func aFileEditedAfterTheManifestWasWrittenIsRefused() throws {
        let sandbox = try TemporaryDirectory("diag-hostile")
        let archive = sandbox.file("edited.tar")
        try makeArchive(archive, compression: .none) { writer in
            try writer.addDirectory("diagnose_test")
            var manifest = BundleManifest(kind: "collect", toolVersion: "test", host: "host", kernel: "Linux", created: 1)
            manifest.files = [BundleFileDigest(path: "summaries/errors.txt", size: 10, sha256: SHA256.hexDigest(of: Array("no errors\n".utf8)))]
            try writer.addFile("diagnose_test/summaries/errors.txt", contents: Array("no errorZ\n".utf8))
            try writer.addFile("diagnose_test/extra.txt", contents: Array("smuggled".utf8))
            try writer.addFile("diagnose_test/manifest.json", contents: Array(try manifest.jsonData()))
        }
        let cache = BundleCache(directory: sandbox.file("cache"), limits: Self.limits)
        let error = #expect(throws: BundleError.self) { try BundleReader.open(archive.path, cache: cache) }
        #expect(error?.exitCode == 65)
        #expect(error?.message.contains("'diagnose_test/summaries/errors.txt' does not match the manifest") == true, "\(error?.message ?? "")")
        #expect(listTree(sandbox.url) == ["cache", "edited.tar"])
    }

    @Test func anArchiveWithoutAManifestIsNotABundle() throws {
        let sandbox = try TemporaryDirectory("diag-hostile")
        let archive = sandbox.file("plain.tar")
        try makeArchive(archive, compression: .none) { writer in
            try writer.addFile("readme.txt", contents: Array("hello".utf8))
        }
        let cache = BundleCache(directory: sandbox.file("cache"), limits: Self.limits)
        let error = #expect(throws: BundleError.self) { try BundleReader.open(archive.path, cache: cache) }
        #expect(error?.message.contains("not a diag bundle") == true)
        #expect(listTree(sandbox.url) == ["cache", "plain.tar"])
    }

    @Test func aValidArchiveIsUnpackedOnceAndReused() throws {
        let sandbox = try TemporaryDirectory("diag-cache")
        let archive = sandbox.file("good.tar.zst")
        try makeArchive(archive, compression: .zstd) { try writeMinimalBundle($0) }
        let cache = BundleCache(directory: sandbox.file("cache"), limits: Self.limits)
        let first = try BundleReader.open(archive.path, cache: cache)
        let sha = SHA256.hexDigest(of: Array(try Data(contentsOf: archive)))
        #expect(first.archiveSHA256 == sha)
        #expect(first.root.path == sandbox.file("cache/\(sha)/diagnose_test").path)
        #expect(first.manifest.files.map(\.path) == ["summaries/errors.txt"])
        let marker = first.root.appendingPathComponent("marker")
        try Data().write(to: marker)
        let second = try BundleReader.open(archive.path, cache: cache)
        #expect(second.root == first.root)
        #expect(FileManager.default.fileExists(atPath: marker.path))
    }
}

/// An archive that cannot be opened is an error naming it, and nothing is freed twice on the way
/// (the reader's buffer was, once: a throwing init whose stored properties are all set runs deinit).
struct UnreadableArchiveTests {
    @Test(arguments: ["missing.tar", "a-folder"])
    func anArchiveThatCannotBeOpenedIsNamed(name: String) throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: folder.file("a-folder"), withIntermediateDirectories: true)
        let path = folder.file(name).path
        for _ in 0..<3 {
            #expect {
                _ = try ArchiveReader(path: path)
            } throws: { error in
                "\(error)".contains(path)
            }
        }
    }
}
