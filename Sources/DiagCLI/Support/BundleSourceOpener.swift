import DiagBundle
import DiagCommandLine
import DiagOutput
import Foundation
import DiagQuery

/// The bundle reader `diag show` and friends use for a bundle SOURCE: DiagBundle's, with a
/// refused bundle (hostile, damaged, not a bundle) reported as bad input, exit status 65.
struct BundleSourceOpener: BundleOpener {
    /// Made when a bundle is opened, not before: the cache's folder comes from the environment
    /// and Foundation's URLs, 0.4 ms that a query of a store never needs.
    var opener: BundleStoreOpener { BundleStoreOpener() }

    func openStore(inBundle path: String) throws -> any OpenedBundleStore {
        try reportingRefusals { try opener.open(path) }
    }

    func isUnpackedBundle(_ path: String) -> Bool {
        BundleReader.isBundle(path)
    }

    func appleLogArchive(inArchive path: String) throws -> String? {
        try reportingRefusals { try AppleArchiveOpener.logArchive(inArchive: path, cache: opener.cache)?.path }
    }

    /// The repro's identifiers the manifest records (`STORE_ID`, `CONTAINER`, …): the values
    /// of `$NAME` in a predicate run on the bundle, unless `--var` gives them.
    func identifiers(ofBundle path: String) throws -> [String: String] {
        try reportingRefusals { try opener.open(path).bundle.manifest.identifiers }
    }

    /// The zone of the machine that collected the bundle, as its manifest records it: the
    /// named zone when this system knows it, else the fixed offset it had then.
    func zone(ofBundle path: String) throws -> DisplayZone? {
        let manifest = try reportingRefusals { try opener.open(path).bundle.manifest }
        if let name = manifest.timeZone, let zone = DisplayZone(parsing: name) { return zone }
        guard let offset = manifest.timeZoneOffsetSeconds else { return nil }
        let minutes = abs(offset) / 60
        return DisplayZone(parsing: "\(offset < 0 ? "-" : "+")\(String(format: "%02d%02d", minutes / 60, minutes % 60))")
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
