import Foundation

/// The fleet schema (docs/FLEET.md): `bundles`, one row per loaded bundle keyed by the SHA-256 of
/// its manifest, and `records`, range-partitioned by day on `timestamp`, with the chunk columns
/// of docs/ARCHITECTURE.md plus the bundle, the host, the load order and the folded message.
public enum FleetSchema {
    public static let version = 1
    static let nanosecondsPerDay: Int64 = 86_400 * 1_000_000_000

    /// The record columns, named as in the chunk schema and `--style ndjson`, in COPY order.
    static let recordColumns = [
        "bundleID", "seq", "host", "timestamp", "receiptTime", "messageType", "eventType",
        "process", "processID", "processImagePath", "userID", "sender", "senderImagePath", "subsystem", "category",
        "threadID", "activityIdentifier", "parentActivityIdentifier", "traceID",
        "eventMessage", "messageFolded", "formatString", "signpostID", "signpostName", "signpostType", "metadata",
        "signpostScope",
    ]

    static let statements = [
        "CREATE EXTENSION IF NOT EXISTS pg_trgm",
        """
        CREATE TABLE IF NOT EXISTS fleet_schema (version integer NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS bundles (
          "bundleID" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          "identity" text NOT NULL UNIQUE,
          "host" text NOT NULL,
          "kind" text NOT NULL,
          "created" bigint NOT NULL,
          "source" text NOT NULL,
          "identifiers" text NOT NULL,
          "recordCount" bigint NOT NULL,
          "loadedAt" timestamptz NOT NULL DEFAULT now()
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS records (
          "bundleID" bigint NOT NULL,
          "seq" bigint NOT NULL,
          "host" text COLLATE "C" NOT NULL,
          "timestamp" bigint NOT NULL,
          "receiptTime" bigint,
          "messageType" smallint NOT NULL,
          "eventType" integer NOT NULL,
          "process" text COLLATE "C", "processID" bigint, "processImagePath" text COLLATE "C", "userID" bigint,
          "sender" text COLLATE "C", "senderImagePath" text COLLATE "C", "subsystem" text COLLATE "C", "category" text COLLATE "C",
          "threadID" bigint, "activityIdentifier" bigint, "parentActivityIdentifier" bigint, "traceID" bigint,
          "eventMessage" text COLLATE "C" NOT NULL,
          "messageFolded" text COLLATE "C" NOT NULL,
          "formatString" text COLLATE "C",
          "signpostID" bigint, "signpostName" text COLLATE "C", "signpostType" text COLLATE "C",
          "metadata" text,
          "signpostScope" text COLLATE "C"
        ) PARTITION BY RANGE ("timestamp")
        """,
        // A fleet created before signposts had scopes lacks the column: added in place, empty.
        #"ALTER TABLE records ADD COLUMN IF NOT EXISTS "signpostScope" text COLLATE "C""#,
        #"CREATE INDEX IF NOT EXISTS records_order ON records ("timestamp", "bundleID", "seq")"#,
        #"CREATE INDEX IF NOT EXISTS records_process ON records ("process", "timestamp")"#,
        #"CREATE INDEX IF NOT EXISTS records_sender ON records ("sender", "timestamp")"#,
        #"CREATE INDEX IF NOT EXISTS records_subsystem ON records ("subsystem", "timestamp")"#,
        #"CREATE INDEX IF NOT EXISTS records_level ON records ("messageType", "timestamp")"#,
        #"CREATE INDEX IF NOT EXISTS records_activity ON records ("activityIdentifier")"#,
        #"CREATE INDEX IF NOT EXISTS records_bundle ON records ("bundleID")"#,
        #"CREATE INDEX IF NOT EXISTS records_message ON records USING gin ("messageFolded" gin_trgm_ops)"#,
    ]

    /// Creates what is missing; refuses a schema of another version. Call inside the load's lock.
    static func create(on connection: PostgresConnection) throws(FleetError) {
        for statement in statements { try connection.execute(statement) }
        let found = try connection.execute(#"SELECT "version" FROM fleet_schema"#)
        if found.rowCount == 0 {
            try connection.execute(#"INSERT INTO fleet_schema ("version") VALUES ($1::integer)"#, [String(version)])
        } else if let existing = found.text(row: 0, column: 0), existing != String(version) {
            throw .badInput("the database \(connection.displayName) holds a fleet schema of version \(existing); this diag reads version \(version)")
        }
    }

    /// Refuses a database that `diag fleet load` never prepared, with what to do.
    static func requireLoaded(_ connection: PostgresConnection) throws(FleetError) {
        let table = try connection.value("SELECT to_regclass('records')::text")
        guard table != nil else {
            throw .badInput("the database \(connection.displayName) holds no fleet records yet; load bundles with diag fleet load --database URL BUNDLE…")
        }
    }

    /// The day partition holding `timestamp`: its name and its range [start, end).
    static func partition(for timestamp: Int64) -> (name: String, start: Int64, end: Int64) {
        let day = timestamp >= 0 ? timestamp / nanosecondsPerDay : -((-(timestamp + 1)) / nanosecondsPerDay) - 1
        let start = day.multipliedReportingOverflow(by: nanosecondsPerDay)
        let end = (day + 1).multipliedReportingOverflow(by: nanosecondsPerDay)
        let (year, month, dayOfMonth) = civilDate(daysSinceEpoch: day)
        let name = year >= 0 && year <= 9999
            ? String(format: "records_%04d%02d%02d", year, month, dayOfMonth)
            : "records_day\(day < 0 ? "m\(-day)" : "\(day)")"
        return (name, start.overflow ? Int64.min : start.partialValue, end.overflow ? Int64.max : end.partialValue)
    }

    /// Proleptic Gregorian date of a day number (H. Hinnant's algorithm).
    static func civilDate(daysSinceEpoch days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The day partitions that exist, by name.
    static func partitions(on connection: PostgresConnection) throws(FleetError) -> Set<String> {
        let result = try connection.execute("""
            SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'records'::regclass
            """)
        return Set((0..<result.rowCount).compactMap { result.text(row: $0, column: 0) })
    }

    /// A day's table before it is attached: the columns of `records` (with their collations)
    /// and a CHECK of the day's range, so that attaching it needs no scan to validate it.
    /// DDL takes no parameters: the name and bounds are built from integers here, never from input.
    static func createBareDay(_ partition: (name: String, start: Int64, end: Int64), on connection: PostgresConnection) throws(FleetError) {
        try connection.execute(#"CREATE TABLE "\#(partition.name)" (LIKE records INCLUDING DEFAULTS INCLUDING CONSTRAINTS)"#)
        try connection.execute(#"ALTER TABLE "\#(partition.name)" ADD CONSTRAINT "\#(partition.name)_day" CHECK ("timestamp" >= \#(partition.start) AND "timestamp" < \#(partition.end))"#)
    }

    /// Attaches a loaded day: PostgreSQL builds the partitioned indexes on it in bulk.
    static func attachDay(_ partition: (name: String, start: Int64, end: Int64), on connection: PostgresConnection) throws(FleetError) {
        try connection.execute(#"ALTER TABLE records ATTACH PARTITION "\#(partition.name)" FOR VALUES FROM (\#(partition.start)) TO (\#(partition.end))"#)
    }
}
