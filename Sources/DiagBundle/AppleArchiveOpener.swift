import DiagStore
import Foundation

/// A sysdiagnose-like archive (`sysdiagnose_….tar.gz`) holding an Apple `.logarchive`: unpacked
/// into the same cache, under the same hostile-archive rules (ExtractionLimits, path checks) as
/// a bundle. A diag bundle is still checked against its manifest here, so that asking first
/// whether an archive is Apple's costs a bundle nothing but the cache lookup that follows.
public enum AppleArchiveOpener {
    /// The `.logarchive` folder inside the archive at `path`, or nil when the archive is a diag
    /// bundle (it has a manifest.json), which the bundle reader then opens from the cache.
    public static func logArchive(inArchive path: String, cache: BundleCache = BundleCache()) throws -> URL? {
        let folder = try unpacked(path, cache: cache).folder
        if (try? BundleReader.topFolder(in: folder)) != nil { return nil }
        return findLogArchive(in: folder)
    }

    /// The archive at `path` as what it holds, from one look-up in the cache: a diag bundle opened
    /// as `BundleReader.open` opens it (its manifest read), or the `.logarchive` folder inside.
    /// For a caller that would otherwise ask `logArchive` first, then open the bundle.
    public static func open(_ path: String, cache: BundleCache = BundleCache()) throws -> UnpackedArchive {
        let (folder, sha) = try unpacked(path, cache: cache)
        if (try? BundleReader.topFolder(in: folder)) == nil, let apple = findLogArchive(in: folder) { return .appleLog(apple) }
        return .bundle(try BundleReader.opened(folder, archiveSHA256: sha))
    }

    /// The archive unpacked into the cache (or found there), each kind checked before it is kept.
    private static func unpacked(_ path: String, cache: BundleCache) throws -> (folder: URL, sha256: String) {
        try cache.unpack(path) { unpacked, digests in
            if let root = try? BundleReader.topFolder(in: unpacked) {
                try BundleReader.admitUnpacked(root: root, digests: digests, archive: path)
                return
            }
            guard findLogArchive(in: unpacked) != nil else {
                throw BundleError.badInput("\(path) is neither a diag bundle (no manifest.json) nor an archive holding an Apple .logarchive folder (with Info.plist)")
            }
        }
    }

    /// The first `*.logarchive` folder with Apple's Info.plist (not our Info.json), at most
    /// three folders deep, by name order: sysdiagnose keeps `system_logs.logarchive` one down.
    static func findLogArchive(in folder: URL, depth: Int = 3) -> URL? {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        for name in names where name.hasSuffix(".logarchive") {
            let candidate = folder.appendingPathComponent(name, isDirectory: true)
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("Info.plist").path),
               !StoreLayout.hasInfo(candidate) {
                return candidate
            }
        }
        guard depth > 1 else { return nil }
        for name in names where !name.hasPrefix(".") {
            var isDirectory: ObjCBool = false
            let child = folder.appendingPathComponent(name, isDirectory: true)
            guard FileManager.default.fileExists(atPath: child.path, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            if let found = findLogArchive(in: child, depth: depth - 1) { return found }
        }
        return nil
    }
}

/// What `AppleArchiveOpener.open` found in an archive.
public enum UnpackedArchive: Sendable {
    case bundle(OpenedBundle)
    case appleLog(URL)
}
