import Foundation

/// A private folder where bundle archives are unpacked once, keyed by the archive's SHA-256:
/// `$XDG_CACHE_HOME/diag/bundles/<sha256>/`.
///
/// An archive is unpacked into a temporary folder inside the cache and renamed into place only
/// when complete, so a refused or interrupted archive leaves nothing behind. A small index maps
/// a file's identity (device, inode, size, modification time) to its digest, so opening the same
/// file again neither rereads nor rehashes it.
public struct BundleCache: Sendable {
    public let directory: URL
    public var limits: ExtractionLimits

    public init(directory: URL = BundleCache.defaultDirectory(), limits: ExtractionLimits = ExtractionLimits()) {
        self.directory = directory
        self.limits = limits
    }

    /// `$XDG_CACHE_HOME/diag/bundles`, else `~/.cache/diag/bundles`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            base = URL(fileURLWithPath: cache, isDirectory: true)
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache")
        }
        return base.appendingPathComponent("diag").appendingPathComponent("bundles")
    }

    /// The folder holding the unpacked archive, unpacking it first if this archive is new.
    /// `validate` checks the unpacked tree and its files' digests before it is kept.
    func unpack(
        _ archivePath: String, validate: (URL, [String: BundleFileDigest]) throws -> Void
    ) throws -> (folder: URL, sha256: String) {
        try createPrivateDirectory(directory)
        let identityKey = try Self.fileIdentity(archivePath)
        let indexFile = directory.appendingPathComponent("index").appendingPathComponent(identityKey)
        if let known = try? String(contentsOf: indexFile, encoding: .utf8), known.count == 64, known.allSatisfy(\.isHexDigit) {
            let folder = directory.appendingPathComponent(known)
            if FileManager.default.fileExists(atPath: folder.path) { return (folder, known) }
        }
        sweepAbandoned()
        let prefix = Self.temporaryPrefix(.unpack)
        var made: URL?
        let temporary: URL, sha: String
        do {
            // The folder is made inside: SIGINT/SIGTERM remove it from the moment it exists.
            (temporary, sha) = try InterruptCleanup.shared.removingFolders(in: directory, prefix: prefix) {
                let temporary = try UniqueFolder.make(in: directory, prefix: prefix)
                made = temporary
                let result = try ArchiveExtractor(limits: limits).extract(archivePath, into: temporary)
                try validate(temporary, result.files)
                return (temporary, result.archiveSHA256)
            }
        } catch let error as BundleError {
            guard let made else { throw error }
            try? FileManager.default.removeItem(at: made)
            throw error.naming(made, as: archivePath)
        } catch {
            if let made { try? FileManager.default.removeItem(at: made) }
            throw error
        }
        let folder = directory.appendingPathComponent(sha)
        if rename(temporary.path, folder.path) != 0 {
            // Another process unpacked the same archive first: keep its copy.
            try? FileManager.default.removeItem(at: temporary)
            guard FileManager.default.fileExists(atPath: folder.path) else {
                throw BundleError.failure("cannot move the unpacked bundle to \(folder.path): \(String(cString: strerror(errno)))")
            }
        }
        try? createPrivateDirectory(indexFile.deletingLastPathComponent())
        let indexTemporary = indexFile.appendingPathExtension("\(getpid())")
        if (try? Data(sha.utf8).write(to: indexTemporary)) != nil { rename(indexTemporary.path, indexFile.path) }
        return (folder, sha)
    }

    /// A file's identity as the cache's index keys it: device, inode, size and modification time.
    /// Another archive written to the same path has another.
    public static func fileIdentity(_ path: String) throws -> String {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw BundleError.badInput("cannot read bundle \(path): \(String(cString: strerror(errno)))")
        }
        let modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        return "\(status.st_dev)-\(status.st_ino)-\(status.st_size)-\(modified)"
    }

    private func createPrivateDirectory(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw BundleError.failure("cannot create the bundle cache \(url.path): \(error.localizedDescription)")
        }
    }
}
