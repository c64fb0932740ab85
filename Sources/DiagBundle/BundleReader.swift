import DiagModel
import Foundation

/// A bundle ready to read: its top folder on disk and its manifest.
public struct OpenedBundle: Sendable {
    /// The bundle's top folder (`diagnose_…/`), inside the cache for an archive.
    public let root: URL
    public let manifest: BundleManifest
    /// The archive's SHA-256, or nil for a bundle opened as an unpacked folder.
    public let archiveSHA256: String?

    /// `system_logs.logarchive/`: a log store directory any store reader opens.
    public var storeDirectory: URL { root.appendingPathComponent(BundleLayout.logStore, isDirectory: true) }
}

/// Opens bundles for reading: `.tar.gz`, `.tar.zst`, `.tar`, or an unpacked bundle folder.
public enum BundleReader {
    /// Whether `path` names a bundle by its form: an archive extension, or a folder holding a
    /// `manifest.json` (itself or as its only top folder). The CLI's source resolver asks this.
    public static func isBundle(_ path: String) -> Bool {
        let lowered = path.lowercased()
        if [".tar.gz", ".tgz", ".tar.zst", ".tzst", ".tar"].contains(where: { lowered.hasSuffix($0) }) { return true }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return false }
        return (try? topFolder(in: URL(fileURLWithPath: path, isDirectory: true))) != nil
    }

    /// Opens a bundle: an archive is unpacked into `cache` (once per distinct archive) after every
    /// entry is checked; a folder is read in place.
    public static func open(_ path: String, cache: BundleCache = BundleCache()) throws -> OpenedBundle {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw BundleError.badInput("no bundle at \(path)")
        }
        if isDirectory.boolValue {
            let folder = URL(fileURLWithPath: path, isDirectory: true)
            try BundleFolderCheck.check(folder)
            let root = try topFolder(in: folder)
            let manifest = try readManifest(root)
            try ForeignStore.admit(bundleRoot: root, migrate: false) {
                TerminalText.escaped(root.appendingPathComponent(BundleLayout.logStore).appendingPathComponent($0).path)
            }
            return OpenedBundle(root: root, manifest: manifest, archiveSHA256: nil)
        }
        let (folder, sha) = try cache.unpack(path) { unpacked, digests in
            try admitUnpacked(root: try topFolder(in: unpacked), digests: digests, archive: path)
        }
        return try opened(folder, archiveSHA256: sha)
    }

    /// The bundle unpacked into `folder` of the cache from the archive of digest `sha`.
    static func opened(_ folder: URL, archiveSHA256 sha: String) throws -> OpenedBundle {
        let root = try topFolder(in: folder)
        return OpenedBundle(root: root, manifest: try readManifest(root), archiveSHA256: sha)
    }

    /// What every unpack of a diag bundle into the cache must pass before it is kept, whoever
    /// asks for it (the bundle reader, the Apple archive opener): the manifest's digests, and
    /// the store's chunks (`ForeignStore`: schema checked, older chunks copied forward).
    static func admitUnpacked(root: URL, digests: [String: BundleFileDigest], archive path: String) throws {
        try checkDigests(of: try readManifest(root), against: digests, top: root.lastPathComponent, archive: path)
        let top = root.lastPathComponent
        try ForeignStore.admit(bundleRoot: root, migrate: true) {
            "refusing \(TerminalText.escaped(path)): entry '\(TerminalText.escaped("\(top)/\(BundleLayout.logStore)/\($0)"))'"
        }
    }

    /// The folder holding `manifest.json`: `folder` itself, or its only subfolder.
    static func topFolder(in folder: URL) throws -> URL {
        let manifest = folder.appendingPathComponent(BundleManifest.fileName)
        if FileManager.default.fileExists(atPath: manifest.path) { return folder }
        let children = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let visible = children.filter { !$0.hasPrefix(".") }
        guard visible.count == 1 else {
            throw BundleError.badInput("\(folder.path) is not a diag bundle: expected one top folder holding manifest.json, found \(visible.count) entries")
        }
        let top = folder.appendingPathComponent(visible[0], isDirectory: true)
        guard FileManager.default.fileExists(atPath: top.appendingPathComponent(BundleManifest.fileName).path) else {
            throw BundleError.badInput("\(folder.path) is not a diag bundle: \(visible[0])/ holds no manifest.json")
        }
        return top
    }

    /// Every file the manifest lists must have been unpacked with its size and SHA-256, and every
    /// unpacked file must be listed: a stream damaged where its compression has no checksum, or
    /// a bundle edited after it was made, is refused here.
    static func checkDigests(
        of manifest: BundleManifest, against digests: [String: BundleFileDigest], top: String, archive: String
    ) throws {
        var unlisted = Set(digests.keys)
        unlisted.remove("\(top)/\(BundleManifest.fileName)")
        for file in manifest.files {
            let key = "\(top)/\(file.path)"
            unlisted.remove(key)
            guard let found = digests[key] else {
                throw BundleError.badInput("refusing \(archive): entry '\(TerminalText.escaped(key))' is listed in the manifest but missing")
            }
            guard found.size == file.size, found.sha256 == file.sha256 else {
                throw BundleError.badInput("refusing \(archive): entry '\(TerminalText.escaped(key))' does not match the manifest (size \(found.size), SHA-256 \(found.sha256); manifest says size \(file.size), SHA-256 \(file.sha256))")
            }
        }
        if let extra = unlisted.sorted().first {
            throw BundleError.badInput("refusing \(archive): entry '\(TerminalText.escaped(extra))' is not listed in the manifest")
        }
    }

    static func readManifest(_ root: URL) throws -> BundleManifest {
        let url = root.appendingPathComponent(BundleManifest.fileName)
        var status = stat()
        guard lstat(url.path, &status) == 0 else {
            throw BundleError.badInput("cannot read \(TerminalText.escaped(url.path)): \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw BundleError.badInput("\(TerminalText.escaped(url.path)) is not a regular file")
        }
        guard status.st_size <= BundleManifest.maximumFileSize else {
            throw BundleError.badInput("\(TerminalText.escaped(url.path)): \(status.st_size) bytes, over the bound of \(BundleManifest.maximumFileSize) bytes for a manifest")
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw BundleError.badInput("cannot read \(TerminalText.escaped(url.path)): \(error.localizedDescription)")
        }
        return try BundleManifest(jsonData: data, source: "\(root.lastPathComponent)/\(BundleManifest.fileName)")
    }
}

/// Names of the fixed parts of a bundle (DESIGN.md, "Bundle layout").
public enum BundleLayout {
    public static let logStore = "system_logs.logarchive"
    public static let stores = "stores"
    public static let asFound = "as-found"
    public static let predicates = "predicates"
    public static let summaries = "summaries"
    public static let stats = "summaries/stats.json"
    public static let errors = "summaries/errors.txt"
    /// What `collect --size` left out (BundleSizeLimit).
    public static let leftOut = "summaries/left-out.txt"
    public static let report = "report.html"
    public static let notes = "notes.txt"
}
