import Foundation

/// `manifest.json` as decoded, before `BundleManifest` checks it: every field optional and read
/// leniently (a field of the wrong type is as if absent), so that the checks and their messages
/// stay `BundleManifest`'s.
///
/// Decoded by `JSONDecoder` into these few structs rather than by `JSONSerialization`, which
/// boxes every value of the file: a 15 MB manifest listing 140,000 files (under the 16 MiB
/// bound) took `diag verify` to 461 MiB; decoded here it takes about 50 MiB
/// (Benchmarks/hostile-bundles.sh, case many-listed).
struct ManifestDocument: Decodable {
    var formatVersion: Int64?
    var kind: String?
    var toolVersion: String?
    var host: String?
    var kernel: String?
    var createdNanoseconds: Int64?
    var windowStart: Int64?
    var windowEnd: Int64?
    var predicate: String?
    var title: String?
    var timeZone: String?
    var timeZoneOffsetSeconds: Int64?
    var redacted: Bool?
    var identifiers: [String: String]?
    var recordCounts: [String: LenientInteger]?
    var stores: [Store]?
    /// Nil when missing, not a list, or holding anything but objects.
    var files: [File]?

    struct Store: Decodable {
        var name: String?
        var sourcePath: String?
        var snapshot: String?
        var asFound: [String]?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            name = container.lenient(String.self, "name")
            sourcePath = container.lenient(String.self, "sourcePath")
            snapshot = container.lenient(String.self, "snapshot")
            asFound = container.lenient([String].self, "asFound")
        }
    }

    struct File: Decodable {
        var path: String?
        var size: Int64?
        var sha256: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            path = container.lenient(String.self, "path")
            size = container.integer("size")
            sha256 = container.lenient(String.self, "sha256")
        }
    }

    /// A number that is an integer (`3` or `3.0`), or nil for anything else; never fails.
    struct LenientInteger: Decodable {
        var value: Int64?

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            value = (try? container.decode(Int64.self)) ?? (try? container.decode(Double.self)).flatMap { Int64(exactly: $0) }
        }
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        formatVersion = container.integer("formatVersion")
        kind = container.lenient(String.self, "kind")
        toolVersion = container.lenient(String.self, "toolVersion")
        host = container.lenient(String.self, "host")
        kernel = container.lenient(String.self, "kernel")
        createdNanoseconds = container.integer("createdNanoseconds")
        if let window = try? container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey(stringValue: "window")) {
            windowStart = window.integer("startNanoseconds")
            windowEnd = window.integer("endNanoseconds")
        }
        predicate = container.lenient(String.self, "predicate")
        title = container.lenient(String.self, "title")
        timeZone = container.lenient(String.self, "timeZone")
        timeZoneOffsetSeconds = container.integer("timeZoneOffsetSeconds")
        redacted = container.lenient(Bool.self, "redacted")
        identifiers = container.lenient([String: String].self, "identifiers")
        recordCounts = container.lenient([String: LenientInteger].self, "recordCounts")
        stores = container.lenient([Store].self, "stores")
        files = container.lenient([File].self, "files")
    }
}

extension KeyedDecodingContainer where Key == ManifestDocument.AnyKey {
    /// The value at `key` when it has that type, else nil.
    func lenient<T: Decodable>(_ type: T.Type, _ key: String) -> T? {
        try? decodeIfPresent(type, forKey: Key(stringValue: key))
    }

    /// The integer at `key` (`3` or `3.0`), else nil.
    func integer(_ key: String) -> Int64? {
        lenient(ManifestDocument.LenientInteger.self, key)?.value
    }
}
