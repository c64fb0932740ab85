import DiagModel
import DiagQuery
import DiagStore
import Foundation

/// Plugs bundles into `DiagQuery`'s source resolution: `diag show BUNDLE` reads the bundle's
/// `system_logs.logarchive` from the unpacked copy in the cache.
public struct BundleStoreOpener: BundleOpener {
    public let cache: BundleCache

    public init(cache: BundleCache = BundleCache()) {
        self.cache = cache
    }

    /// Opens the bundle, throwing `BundleError` (exit code 65 for a refused bundle).
    public func open(_ path: String) throws -> BundleStore {
        try store(of: try BundleReader.open(path, cache: cache), path: path)
    }

    /// The store of a bundle already opened (from `path`), refused when the bundle holds none.
    public func store(of bundle: OpenedBundle, path: String) throws -> BundleStore {
        let store = BundleStore(bundle: bundle)
        guard StoreLayout.hasInfo(store.storeURL) else {
            throw BundleError.badInput("\(TerminalText.escaped(path)): the bundle holds no log store (\(BundleLayout.logStore)/\(StoreLayout.infoPath)), so no records")
        }
        return store
    }

    public func openStore(inBundle path: String) throws -> any OpenedBundleStore {
        do {
            return try open(path)
        } catch let error as BundleError {
            throw QueryError(error.message, badInput: error.exitCode == 65)
        }
    }
}

/// An opened bundle as a query source. The cached copy outlives it: the cache is kept for the
/// next query of the same bundle.
public final class BundleStore: OpenedBundleStore, Sendable {
    public let bundle: OpenedBundle

    init(bundle: OpenedBundle) {
        self.bundle = bundle
    }

    public var storeURL: URL { bundle.storeDirectory }
}
