import DiagAppleLog
import DiagStore
import Foundation

/// What a `SOURCE` argument of `diag show` names.
public enum QuerySource: Sendable, Hashable {
    /// A store directory (`Info.json` and `Persist/`).
    case store(URL)
    /// A bundle archive (`.tar.gz`, `.tgz`, `.tar.zst`, `.tar`).
    case bundle(String)
    /// A plain log file in any format the importers detect; `-` is standard input.
    case file(String)
    /// Apple's unified logs: a `.tracev3` file or a `.logarchive` folder (Info.plist, not ours).
    case appleLog(String)
}

/// Reads the log store inside a bundle: the seam through which DiagBundle plugs into queries
/// (DiagQuery cannot depend on DiagBundle, which depends on it). `diag` hands one to the
/// `SourceResolver`; without one, bundles are refused with a message saying so.
public protocol BundleOpener: Sendable {
    /// Makes the bundle's `system_logs.logarchive` readable as a store directory; the returned
    /// object keeps it readable (for example, extracted in a temporary folder) until released.
    func openStore(inBundle path: String) throws -> any OpenedBundleStore
    /// Whether a directory is an unpacked bundle (it holds a manifest), so that it is read as one.
    func isUnpackedBundle(_ path: String) -> Bool
    /// The Apple `.logarchive` folder inside a sysdiagnose-like archive, unpacked; nil when the
    /// archive is a bundle of ours.
    func appleLogArchive(inArchive path: String) throws -> String?
}

extension BundleOpener {
    public func isUnpackedBundle(_ path: String) -> Bool { false }
    public func appleLogArchive(inArchive path: String) throws -> String? { nil }
}

public protocol OpenedBundleStore: AnyObject {
    var storeURL: URL { get }
}

/// Decides what each `SOURCE` is, by what is on disk.
public struct SourceResolver: Sendable {
    public let bundleOpener: (any BundleOpener)?

    public init(bundleOpener: (any BundleOpener)? = nil) {
        self.bundleOpener = bundleOpener
    }

    public static let bundleSuffixes = [".tar.gz", ".tgz", ".tar.zst", ".tzst", ".tar"]

    public func resolve(_ path: String) throws -> QuerySource {
        // `-` reads standard input, as `diag import -` and most Unix tools do.
        if path == "-" { return .file(path) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            // A source named on the command line that is not there is bad input (65), as an
            // unreadable one is: the user's path is wrong, not the machine.
            throw QueryError("\(path): no such file or directory", badInput: true)
        }
        let url = URL(fileURLWithPath: path)
        if !StoreLayout.hasInfo(url), AppleLogArchive.recognizes(path) { return .appleLog(path) }
        if isDirectory.boolValue {
            guard StoreLayout.looksLikeStore(url) else {
                if let bundleOpener, bundleOpener.isUnpackedBundle(path) { return .bundle(path) }
                throw QueryError("\(path): a directory that is neither a log store (no \(StoreLayout.infoFile) or \(StoreLayout.chunkFolder)/ inside) nor an unpacked bundle (no manifest.json)", badInput: true)
            }
            return .store(url)
        }
        let lowered = path.lowercased()
        if Self.bundleSuffixes.contains(where: { lowered.hasSuffix($0) }) {
            if let apple = try bundleOpener?.appleLogArchive(inArchive: path) { return .appleLog(apple) }
            return .bundle(path)
        }
        return .file(path)
    }
}

/// A source that cannot be read as asked: names the source and what was wrong.
public struct QueryError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// The source was read and refused (unknown format, damaged store or bundle): exit 65 rather
    /// than 1, which is for what could not be read at all (missing file, I/O).
    public var isBadInput: Bool

    public init(_ message: String, badInput: Bool = false) {
        self.message = message
        isBadInput = badInput
    }

    public var description: String { message }
}
