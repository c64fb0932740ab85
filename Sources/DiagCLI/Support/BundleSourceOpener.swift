import DiagBundle
import DiagCommandLine
import DiagOutput
import Foundation
import DiagQuery
import Synchronization

/// The bundle reader `diag show` and friends use for a bundle SOURCE: DiagBundle's, with a
/// refused bundle (hostile, damaged, not a bundle) reported as bad input, exit status 65.
struct BundleSourceOpener: BundleOpener {
    /// The unpack cache's folder; nil for the user's (`BundleCache.defaultDirectory`).
    var cacheDirectory: URL?

    /// Made when a bundle is opened, not before: the cache's folder comes from the environment
    /// and Foundation's URLs, 0.4 ms that a query of a store never needs.
    var opener: BundleStoreOpener {
        BundleStoreOpener(cache: cacheDirectory.map { BundleCache(directory: $0) } ?? BundleCache())
    }

    func openStore(inBundle path: String) throws -> any OpenedBundleStore {
        try reportingRefusals { try opener.store(of: try bundle(path), path: path) }
    }

    func isUnpackedBundle(_ path: String) -> Bool {
        BundleReader.isBundle(path)
    }

    func appleLogArchive(inArchive path: String) throws -> String? {
        try reportingRefusals {
            if Self.opened(path) != nil { return nil }
            switch try AppleArchiveOpener.open(path, cache: opener.cache) {
            case .appleLog(let folder): return folder.path
            case .bundle(let bundle):
                Self.keep(bundle, path: path)
                return nil
            }
        }
    }

    /// The repro's identifiers the manifest records (`STORE_ID`, `CONTAINER`, …): the values
    /// of `$NAME` in a predicate run on the bundle, unless `--var` gives them.
    func identifiers(ofBundle path: String) throws -> [String: String] {
        try reportingRefusals { try bundle(path).manifest.identifiers }
    }

    /// The zone of the machine that collected the bundle, as its manifest records it: the
    /// named zone when this system knows it, else the fixed offset it had then.
    func zone(ofBundle path: String) throws -> DisplayZone? {
        let manifest = try reportingRefusals { try bundle(path).manifest }
        if let name = manifest.timeZone, let zone = DisplayZone(parsing: name) { return zone }
        guard let offset = manifest.timeZoneOffsetSeconds else { return nil }
        let minutes = abs(offset) / 60
        return DisplayZone(parsing: "\(offset < 0 ? "-" : "+")\(String(format: "%02d%02d", minutes / 60, minutes % 60))")
    }

    /// Bundles this process opened, by path, each with the archive's identity when it was
    /// opened (`BundleCache.fileIdentity`). `diag show BUNDLE` asks three times (is it Apple's
    /// archive, the manifest's identifiers, the store), and each asked the cache again and
    /// decoded the manifest again (`perf`: about 1.3 ms of CPU of each query of a bundle of 10M
    /// records). Another file at the same path is opened anew.
    private static let openedBundles = Mutex<[String: (identity: String, bundle: OpenedBundle)]>([:])

    private static func opened(_ path: String) -> OpenedBundle? {
        guard let identity = try? BundleCache.fileIdentity(path) else { return nil }
        return openedBundles.withLock { $0[path] }.flatMap { $0.identity == identity ? $0.bundle : nil }
    }

    private static func keep(_ bundle: OpenedBundle, path: String) {
        guard let identity = try? BundleCache.fileIdentity(path) else { return }
        openedBundles.withLock { $0[path] = (identity, bundle) }
    }

    /// The bundle at `path`, opened once per process while the file stays the same.
    private func bundle(_ path: String) throws -> OpenedBundle {
        if let bundle = Self.opened(path) { return bundle }
        let bundle = try BundleReader.open(path, cache: opener.cache)
        Self.keep(bundle, path: path)
        return bundle
    }

    private func reportingRefusals<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as BundleError {
            if error.exitCode == 65 { throw InputError(error.message) }
            throw RuntimeError(error.message)
        }
    }
}
