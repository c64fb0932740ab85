import DiagModel
import DiagStore
import Foundation

/// Which records a feedback bundle keeps: the predicate's SQL part, run by the store, and the
/// rest checked on each record.
public struct RecordSelector: Sendable {
    public var filter: StoreFilter
    public var residual: @Sendable (LogRecord) throws -> Bool

    public init(filter: StoreFilter, residual: @escaping @Sendable (LogRecord) throws -> Bool) {
        self.filter = filter
        self.residual = residual
    }
}

/// A predicate file to keep under `predicates/`.
public struct BundlePredicateFile: Sendable, Hashable {
    public var name: String
    public var contents: String

    public init(name: String, contents: String) {
        self.name = name
        self.contents = contents
    }
}

/// What `diag collect` and `diag feedback` ask for.
public struct BundleRequest: Sendable {
    public enum Kind: String, Sendable {
        /// Everything in the window, as found.
        case collect
        /// Only the records a predicate selects, with notes, ready to attach to a bug report.
        case feedback
    }

    public var kind: Kind
    /// The log store directory to take records from.
    public var storeDirectory: URL
    public var window: BundleWindow
    /// Components' SQLite store files (`--store-file`), snapshotted under `stores/<name>/`.
    public var storeFiles: [String] = []
    /// `--var NAME=VALUE` and `--identifier` values, recorded in the manifest.
    public var identifiers: [String: String] = [:]
    public var compression: BundleCompression = .gzip
    /// A folder to write the bundle in (named `diagnose_…`), or the bundle's file path; nil for
    /// the current directory.
    public var output: String?
    public var toolVersion: String
    public var title: String?
    public var notes: String?
    /// The predicate text, recorded in the manifest and under `predicates/`.
    public var predicate: String?
    public var predicateFiles: [BundlePredicateFile] = []
    /// Feedback: which records to keep. Collect keeps every record of the window.
    public var selection: RecordSelector?
    /// Records only diagd holds in memory (its Debug ring), added to the bundled store.
    public var extraRecords: [LogRecord] = []
    /// Replace user, host names and addresses in records with placeholders (feedback).
    public var redact = false
    /// Collect: report.html begins with the patterns new, gone and changed since this baseline.
    public var baseline: ReportBaseline?
    /// Nanoseconds since the epoch; also names the bundle.
    public var created: Int64
    /// What `--size` left out of the window (whose start it moved), said in the bundle.
    public var leftOut: BundleSizeLimit.LeftOut?

    public init(kind: Kind, storeDirectory: URL, window: BundleWindow, toolVersion: String, created: Int64) {
        self.kind = kind
        self.storeDirectory = storeDirectory
        self.window = window
        self.toolVersion = toolVersion
        self.created = created
    }
}

/// What a finished collection produced.
public struct BundleResult: Sendable {
    /// The bundle file.
    public var path: String
    public var manifest: BundleManifest
    /// Where the redaction map was written (beside the bundle, never inside it), when redacting.
    public var redactionMapPath: String?
}

/// Where a collection is, for a progress line.
public struct BundleProgress: Sendable {
    public var phase: String
    /// Bytes written into the archive so far.
    public var archivedBytes: Int64
}

extension BundleRequest {
    /// `diagnose_2026.11.29_09-40-00+0000_<host>`, in the machine's local time.
    static func bundleName(created: Int64, host: String) -> String {
        var seconds = time_t(created / Timestamp.nanosecondsPerSecond)
        var parts = tm()
        localtime_r(&seconds, &parts)
        let offset = Int(parts.tm_gmtoff)
        let sign = offset < 0 ? "-" : "+"
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let zone = "\(sign)\(two(abs(offset) / 3600))\(two(abs(offset) % 3600 / 60))"
        let date = "\(parts.tm_year + 1900).\(two(Int(parts.tm_mon) + 1)).\(two(Int(parts.tm_mday)))"
        let time = "\(two(Int(parts.tm_hour)))-\(two(Int(parts.tm_min)))-\(two(Int(parts.tm_sec)))"
        return "diagnose_\(date)_\(time)\(zone)_\(HostInfo.fileNameSafe(host))"
    }

    /// The bundle's file path and its top folder's name. A name of the tool's own (no
    /// `--output`, or a folder) that a bundle of the same second and host already has gets
    /// `-2`, `-3`… (two collects in one second — a repro and a good run in one script — named the
    /// second like the first and refused it); a file named by `--output` is never replaced.
    func outputPath(host: String) -> (path: String, top: String) {
        let base = BundleRequest.bundleName(created: created, host: host)
        let folder: URL
        if let output, !output.isEmpty {
            var isDirectory: ObjCBool = false
            guard output.hasSuffix("/") || (FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) && isDirectory.boolValue) else {
                return (output, base)
            }
            folder = URL(fileURLWithPath: output, isDirectory: true)
        } else {
            folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        }
        var name = base
        var path = folder.appendingPathComponent(name + compression.fileExtension).path
        var number = 1
        while FileManager.default.fileExists(atPath: path) && number < 1000 {
            number += 1
            name = "\(base)-\(number)"
            path = folder.appendingPathComponent(name + compression.fileExtension).path
        }
        return (path, name)
    }
}
