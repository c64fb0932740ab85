import DiagStore
import Foundation

/// What `diag verify` found: one line per file that differs from the manifest or per missing
/// part of the layout; empty when the bundle is intact.
public struct BundleVerification: Sendable {
    public var problems: [String]
    public var checkedFiles: Int
    public var manifest: BundleManifest

    public var isIntact: Bool { problems.isEmpty }
}

/// Checks a bundle against its manifest: every listed file present with its size and SHA-256,
/// nothing unlisted, and the parts of the layout every bundle has.
public enum BundleVerifier {
    static let requiredFiles = ["\(BundleLayout.logStore)/\(StoreLayout.infoPath)", BundleLayout.stats, BundleLayout.errors, BundleLayout.report]

    /// Verifies an archive (unpacked afresh into a temporary folder inside `cache`, then removed)
    /// or an unpacked bundle folder. Throws when the archive itself is refused.
    public static func verify(_ path: String, cache: BundleCache = BundleCache()) throws -> BundleVerification {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw BundleError.badInput("no bundle at \(path)")
        }
        if isDirectory.boolValue {
            let folder = URL(fileURLWithPath: path, isDirectory: true)
            try BundleFolderCheck.check(folder)
            let root = try BundleReader.topFolder(in: folder)
            var verification = compare(try BundleReader.readManifest(root), with: try digests(under: root))
            verification.problems += ForeignStore.problems(bundleRoot: root)
            return verification
        }
        try FileManager.default.createDirectory(at: cache.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        cache.sweepAbandoned()
        let prefix = BundleCache.temporaryPrefix(.verify)
        var made: URL?
        defer { if let made { try? FileManager.default.removeItem(at: made) } }
        do {
            // The folder is made inside: SIGINT/SIGTERM remove it from the moment it exists.
            return try InterruptCleanup.shared.removingFolders(in: cache.directory, prefix: prefix) {
                let temporary = try UniqueFolder.make(in: cache.directory, prefix: prefix)
                made = temporary
                return try verify(archive: path, unpackedInto: temporary, limits: cache.limits)
            }
        } catch let error as BundleError {
            guard let made else { throw error }
            throw error.naming(made, as: path)
        }
    }

    private static func verify(archive path: String, unpackedInto temporary: URL, limits: ExtractionLimits) throws -> BundleVerification {
        let result = try ArchiveExtractor(limits: limits).extract(path, into: temporary)
        let root = try BundleReader.topFolder(in: temporary)
        let prefix = root.lastPathComponent + "/"
        var files: [String: BundleFileDigest] = [:]
        for (key, digest) in result.files where key.hasPrefix(prefix) {
            let relative = String(key.dropFirst(prefix.count))
            files[relative] = BundleFileDigest(path: relative, size: digest.size, sha256: digest.sha256)
        }
        for key in result.files.keys where !key.hasPrefix(prefix) {
            files[key] = result.files[key]
        }
        var verification = compare(try BundleReader.readManifest(root), with: files)
        verification.problems += ForeignStore.problems(bundleRoot: root)
        return verification
    }

    static func compare(_ manifest: BundleManifest, with found: [String: BundleFileDigest]) -> BundleVerification {
        var problems: [String] = []
        var unlisted = Set(found.keys)
        unlisted.remove(BundleManifest.fileName)
        for file in manifest.files {
            unlisted.remove(file.path)
            guard let actual = found[file.path] else {
                problems.append("\(file.path): missing (the manifest lists \(file.size) bytes)")
                continue
            }
            if actual.size != file.size {
                problems.append("\(file.path): size \(actual.size) bytes, the manifest says \(file.size)")
            } else if actual.sha256 != file.sha256 {
                problems.append("\(file.path): SHA-256 \(actual.sha256), the manifest says \(file.sha256)")
            }
        }
        for path in unlisted.sorted() { problems.append("\(path): not listed in the manifest") }
        let listed = Set(manifest.files.map(\.path))
        for required in requiredFiles where !listed.contains(required) {
            problems.append("\(required): required by the bundle layout but not in the manifest")
        }
        for store in manifest.stores where !listed.contains(store.snapshot) {
            problems.append("\(store.snapshot): the snapshot of store '\(store.name)' is not in the manifest")
        }
        return BundleVerification(problems: problems, checkedFiles: manifest.files.count, manifest: manifest)
    }

    /// Size and SHA-256 of every file under `root`, by path relative to it.
    static func digests(under root: URL) throws -> [String: BundleFileDigest] {
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw BundleError.failure("cannot list \(root.path)")
        }
        let prefix = root.standardizedFileURL.path + "/"
        var result: [String: BundleFileDigest] = [:]
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        for case let url as URL in enumerator {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(prefix.count))
            let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw BundleError.failure("cannot read \(url.path): \(String(cString: strerror(errno)))") }
            defer { close(descriptor) }
            var hasher = SHA256()
            var size: Int64 = 0
            while true {
                let count = read(descriptor, buffer.baseAddress, buffer.count)
                guard count >= 0 else { throw BundleError.failure("cannot read \(url.path): \(String(cString: strerror(errno)))") }
                if count == 0 { break }
                hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                size += Int64(count)
            }
            result[relative] = BundleFileDigest(path: relative, size: size, sha256: hasher.hexDigest())
        }
        return result
    }
}
