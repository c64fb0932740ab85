@testable import DiagBundle
import Foundation
import TestSupport

/// Builds a tar archive through the bundle's libarchive writer, as hostile tests need.
func makeArchive(_ url: URL, compression: BundleCompression = .gzip, _ build: (ArchiveWriter) throws -> Void) throws {
    let writer = try ArchiveWriter(path: url.path, compression: compression, modificationTime: 1_764_409_200)
    try build(writer)
    try writer.finish()
}

/// A minimal valid bundle: a top folder with `summaries/errors.txt`, the `extra` files, and a
/// manifest that lists them all.
func writeMinimalBundle(_ writer: ArchiveWriter, top: String = "diagnose_test", extra: [(String, [UInt8])] = []) throws {
    try writer.addDirectory(top)
    var manifest = BundleManifest(kind: "collect", toolVersion: "test", host: "host", kernel: "Linux", created: 1)
    for (path, contents) in [("summaries/errors.txt", Array("no errors\n".utf8))] + extra {
        var digest = try writer.addFile("\(top)/\(path)", contents: contents)
        digest.path = path
        manifest.files.append(digest)
    }
    try writer.addFile("\(top)/manifest.json", contents: Array(try manifest.jsonData()))
}

/// Every path under `folder`, relative to it, sorted.
func listTree(_ folder: URL) -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
    return (enumerator.allObjects as? [String] ?? []).sorted()
}
