import DiagBundle
import DiagModel
import DiagQuery
import Foundation

/// Loads bundles into the fleet schema, one transaction per bundle: a bundle is either entirely
/// loaded and listed in `bundles`, or absent. A bundle already there (same manifest SHA-256) adds
/// nothing. Loaders on one database take turns (an advisory lock held by each transaction).
public struct FleetLoader {
    /// What loading one bundle did.
    public struct Outcome: Sendable, Equatable {
        public var bundleID: Int64
        public var identity: String
        public var host: String
        public var recordCount: Int64
        /// The bundle was loaded before: nothing was added.
        public var alreadyLoaded: Bool
    }

    /// The key of `pg_advisory_xact_lock` that serialises loads ("diagflt" in ASCII).
    static let loadLock: Int64 = 0x64_6961_6766_6C74

    let connection: PostgresConnection
    let cache: BundleCache

    public init(connection: PostgresConnection, cache: BundleCache = BundleCache()) {
        self.connection = connection
        self.cache = cache
    }

    /// Loads the bundle at `path` (`.tar.gz`, `.tar.zst`, `.tar`, or a folder); `progress` gets
    /// the number of records sent so far, every 10,000 records.
    public func load(_ path: String, progress: (Int64) -> Void = { _ in }) throws -> Outcome {
        let bundle: OpenedBundle
        do {
            bundle = try BundleReader.open(path, cache: cache)
        } catch let error as BundleError {
            throw FleetError(error.exitCode == 65 ? .badInput : .failure, error.message)
        }
        let manifestURL = bundle.root.appendingPathComponent(BundleManifest.fileName)
        let identity: String
        do {
            identity = SHA256.hexDigest(of: Array(try Data(contentsOf: manifestURL)))
        } catch {
            throw FleetError.failure("cannot read \(manifestURL.path): \(error.localizedDescription)")
        }
        return try connection.transaction {
            try connection.execute("SELECT pg_advisory_xact_lock($1::bigint)", [String(Self.loadLock)])
            try FleetSchema.create(on: connection)
            if let known = try connection.value(#"SELECT "bundleID" FROM bundles WHERE "identity" = $1::text"#, [identity]),
               let id = Int64(known)
            {
                let count = try connection.value(#"SELECT "recordCount" FROM bundles WHERE "bundleID" = $1::bigint"#, [String(id)])
                return Outcome(bundleID: id, identity: identity, host: bundle.manifest.host,
                               recordCount: count.flatMap { Int64($0) } ?? 0, alreadyLoaded: true)
            }
            let manifest = bundle.manifest
            var identifiers = JSONWriter()
            identifiers.append(.object(manifest.identifiers.mapValues(JSONValue.string)))
            guard let inserted = try connection.value(
                #"INSERT INTO bundles ("identity", "host", "kind", "created", "source", "identifiers", "recordCount") VALUES ($1::text, $2::text, $3::text, $4::bigint, $5::text, $6::text, 0) RETURNING "bundleID""#,
                [identity, manifest.host, manifest.kind, String(manifest.created), path, String(decoding: identifiers.bytes, as: UTF8.self)]),
                let bundleID = Int64(inserted)
            else { throw FleetError.failure("the database \(connection.displayName) returned no bundle id") }
            let count = try copyRecords(of: bundle, path: path, bundleID: bundleID, progress: progress)
            try connection.execute(#"UPDATE bundles SET "recordCount" = $1::bigint WHERE "bundleID" = $2::bigint"#, [String(count), String(bundleID)])
            return Outcome(bundleID: bundleID, identity: identity, host: manifest.host, recordCount: count, alreadyLoaded: false)
        }
    }

    /// Streams the bundle's store in `diag show` order (time, then chunk and insertion order);
    /// `seq` keeps that order for ties. A COPY is ended to create each new day's partition.
    private func copyRecords(of bundle: OpenedBundle, path: String, bundleID: Int64, progress: (Int64) -> Void) throws -> Int64 {
        let selection = RecordSelection(includeInfo: true, includeDebug: true)
        let results: QueryResults
        do {
            results = try LogQuery(selection: selection).open([.store(bundle.storeDirectory)]) { _ in }
        } catch let error as QueryError {
            throw FleetError(error.isBadInput ? .badInput : .failure, "\(path): \(error.message)")
        }
        let attached = try FleetSchema.partitions(on: connection)
        // Days new to the database are loaded into bare tables and attached at the end, when
        // PostgreSQL builds their indexes in bulk (several times faster than row by row).
        var bare: [String: (start: Int64, end: Int64)] = [:]
        var seq: Int64 = 0
        var pending: LogRecord?
        var finished = false
        let columns = FleetSchema.recordColumns.map { "\"\($0)\"" }.joined(separator: ", ")
        while !finished {
            // The table this COPY fills, and the day range it takes.
            var target = "records"
            var day: (start: Int64, end: Int64) = (0, 0)
            if let record = pending {
                let partition = FleetSchema.partition(for: record.timestamp)
                day = (partition.start, partition.end)
                if !attached.contains(partition.name) {
                    if bare[partition.name] == nil {
                        try FleetSchema.createBareDay(partition, on: connection)
                        bare[partition.name] = (partition.start, partition.end)
                    }
                    target = "\"\(partition.name)\""
                }
            }
            try connection.copy("COPY \(target) (\(columns)) FROM STDIN") { copy in
                while true {
                    let next: LogRecord?
                    if let held = pending {
                        next = held
                        pending = nil
                    } else {
                        do {
                            next = try results.next()
                        } catch let error as QueryError {
                            throw FleetError(error.isBadInput ? .badInput : .failure, "\(path): \(error.message)")
                        }
                    }
                    guard let record = next else { finished = true; return }
                    if record.timestamp < day.start || record.timestamp >= day.end {
                        let partition = FleetSchema.partition(for: record.timestamp)
                        // The parent routes rows to attached days; any other day needs its own COPY.
                        guard target == "records", attached.contains(partition.name) else { pending = record; return }
                        day = (partition.start, partition.end)
                    }
                    do {
                        try CopyRowEncoder.append(record, bundleID: bundleID, seq: seq, host: bundle.manifest.host, to: &copy.buffer)
                    } catch let error as CopyRowEncoder.NulCharacter {
                        throw FleetError.badInput("\(path): record \(seq + 1) (\(Timestamp.formatISO8601(nanoseconds: record.timestamp))): its \(error.field) holds a NUL character (U+0000), which PostgreSQL text cannot store; nothing of this bundle was loaded")
                    }
                    seq += 1
                    try copy.sendIfFull()
                    if seq % 10_000 == 0 { progress(seq) }
                }
            }
        }
        for (name, range) in bare.sorted(by: { $0.key < $1.key }) {
            try FleetSchema.attachDay((name, range.start, range.end), on: connection)
        }
        progress(seq)
        return seq
    }
}
