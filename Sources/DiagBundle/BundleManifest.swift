import DiagModel
import Foundation

/// `manifest.json`: what a bundle holds and how to check it (DESIGN.md, "Bundle layout").
public struct BundleManifest: Sendable, Equatable {
    public static let currentFormatVersion = 1
    public static let fileName = "manifest.json"
    /// The largest manifest read (checked before it is parsed): a real one lists a few dozen
    /// files in a few kilobytes.
    public static let maximumFileSize: Int64 = 16 << 20

    /// A component's store file as collected: where it came from and what the bundle holds of it.
    public struct StoreFile: Sendable, Equatable {
        public var name: String
        public var sourcePath: String
        /// The consistent snapshot, relative to the top folder (`stores/<name>/<file>`).
        public var snapshot: String
        /// Raw `-wal` / `-shm` copies under `as-found/`, relative to the top folder.
        public var asFound: [String]

        public init(name: String, sourcePath: String, snapshot: String, asFound: [String]) {
            self.name = name
            self.sourcePath = sourcePath
            self.snapshot = snapshot
            self.asFound = asFound
        }
    }

    public var formatVersion = BundleManifest.currentFormatVersion
    /// `collect` or `feedback`.
    public var kind: String
    public var toolVersion: String
    public var host: String
    public var kernel: String
    /// Nanoseconds since the epoch.
    public var created: Int64
    public var windowStart: Int64?
    public var windowEnd: Int64?
    public var predicate: String?
    public var title: String?
    public var redacted = false
    /// `--var NAME=VALUE` and `--identifier` values the bundle was collected for.
    public var identifiers: [String: String] = [:]
    /// The collecting machine's zone (its name, like `Europe/Paris`, or an offset like `+0100`) and
    /// its offset then: `--timezone bundle` shows times as the reporter saw them. Nil in bundles
    /// written before it was recorded.
    public var timeZone: String?
    public var timeZoneOffsetSeconds: Int?
    /// `total` and one count per level name (`Default`, `Error`, …) in the bundled log store.
    public var recordCounts: [String: Int64] = [:]
    /// What `collect --size` left out, as `sizeLimit` in the JSON.
    public var leftOut: BundleSizeLimit.LeftOut?
    public var stores: [StoreFile] = []
    public var files: [BundleFileDigest] = []

    public init(kind: String, toolVersion: String, host: String, kernel: String, created: Int64) {
        self.kind = kind
        self.toolVersion = toolVersion
        self.host = host
        self.kernel = kernel
        self.created = created
    }

    public func jsonData() throws -> Data {
        var object: [String: Any] = [
            "formatVersion": formatVersion, "kind": kind, "toolVersion": toolVersion, "host": host,
            "kernel": kernel, "created": Timestamp.formatISO8601(nanoseconds: created),
            "createdNanoseconds": created, "redacted": redacted, "identifiers": identifiers,
            "recordCounts": recordCounts,
            "stores": stores.map { ["name": $0.name, "sourcePath": $0.sourcePath, "snapshot": $0.snapshot, "asFound": $0.asFound] },
            "files": files.map { ["path": $0.path, "size": $0.size, "sha256": $0.sha256] as [String: Any] },
        ]
        var window: [String: Any] = [:]
        if let windowStart { window["start"] = Timestamp.formatISO8601(nanoseconds: windowStart, fractionDigits: 9); window["startNanoseconds"] = windowStart }
        if let windowEnd { window["end"] = Timestamp.formatISO8601(nanoseconds: windowEnd, fractionDigits: 9); window["endNanoseconds"] = windowEnd }
        object["window"] = window
        if let predicate { object["predicate"] = predicate }
        if let title { object["title"] = title }
        if let timeZone { object["timeZone"] = timeZone }
        if let timeZoneOffsetSeconds { object["timeZoneOffsetSeconds"] = timeZoneOffsetSeconds }
        if let leftOut {
            var limit: [String: Any] = ["bytes": leftOut.limit, "keptFromNanoseconds": leftOut.keptFrom,
                                        "keptRecords": leftOut.keptRecords, "leftOutRecords": leftOut.leftOutRecords]
            limit["keptFrom"] = Timestamp.formatISO8601(nanoseconds: leftOut.keptFrom, fractionDigits: 9)
            if let oldest = leftOut.leftOutOldest { limit["leftOutOldestNanoseconds"] = oldest }
            object["sizeLimit"] = limit
        }
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    /// Reads a manifest; `source` names it in errors.
    public init(jsonData data: Data, source: String) throws {
        func bad(_ reason: String) -> BundleError { .badInput("\(source): \(reason)") }
        guard Int64(data.count) <= Self.maximumFileSize else {
            throw bad("\(data.count) bytes, over the bound of \(Self.maximumFileSize) bytes for a manifest")
        }
        let document: ManifestDocument
        do { document = try JSONDecoder().decode(ManifestDocument.self, from: data) } catch DecodingError.typeMismatch {
            throw bad("not a JSON object")
        } catch let DecodingError.dataCorrupted(context) {
            let cause = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String ?? context.debugDescription
            throw bad("not valid JSON (\(cause))")
        } catch {
            throw bad("not valid JSON (\(error))")
        }
        func string(_ value: String?, _ key: String) throws -> String {
            guard let value else { throw bad("'\(key)' is missing or not a string") }
            return value
        }
        guard let version = document.formatVersion else { throw bad("'formatVersion' is missing or not a number") }
        guard version >= 1, version <= Int64(BundleManifest.currentFormatVersion) else {
            throw bad("format version \(version) is not supported (this diag reads versions 1 to \(BundleManifest.currentFormatVersion))")
        }
        guard let created = document.createdNanoseconds else { throw bad("'createdNanoseconds' is missing or not a number") }
        self.init(
            kind: try string(document.kind, "kind"), toolVersion: try string(document.toolVersion, "toolVersion"),
            host: try string(document.host, "host"), kernel: try string(document.kernel, "kernel"), created: created)
        formatVersion = Int(version)
        windowStart = document.windowStart
        windowEnd = document.windowEnd
        predicate = document.predicate
        title = document.title
        timeZone = document.timeZone.flatMap { $0.count <= 64 ? $0 : nil }
        timeZoneOffsetSeconds = document.timeZoneOffsetSeconds.flatMap { abs($0) <= 18 * 3600 ? Int($0) : nil }
        redacted = document.redacted ?? false
        identifiers = document.identifiers ?? [:]
        recordCounts = (document.recordCounts ?? [:]).compactMapValues(\.value)
        stores = (document.stores ?? []).compactMap { store in
            guard let name = store.name, let snapshot = store.snapshot else { return nil }
            return StoreFile(name: name, sourcePath: store.sourcePath ?? "", snapshot: snapshot, asFound: store.asFound ?? [])
        }
        guard let files = document.files else { throw bad("'files' is missing or not a list") }
        self.files = try files.enumerated().map { index, file in
            guard let path = file.path, let size = file.size, let sha = file.sha256, sha.count == 64, sha.allSatisfy(\.isHexDigit)
            else { throw bad("files[\(index)] needs a 'path', a 'size' and a 64-digit hex 'sha256'") }
            return BundleFileDigest(path: path, size: size, sha256: sha.lowercased())
        }
    }
}
