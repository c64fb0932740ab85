/// One field of a `LogRecord`, as every layer names and stores it: the chunk column and its
/// SQLite type, the key of `--style ndjson`, the keys a predicate names it by, the PostgreSQL
/// type of the fleet's column (named as the chunk's), and what the column holds for a record.
///
/// `RecordFields.all` is the one list of them (docs/ARCHITECTURE.md, "Adding a record field").
/// Code that is not on a hot path is derived from it (`ChunkSchema.columns`, the insert and
/// select lists); the hand-written writers and schemas (`RecordRow`, `ChunkSchema.createRecords`,
/// `FleetSchema`, `CopyRowEncoder`, the NDJSON writers, DiagPredicate's `Field`) are held to it
/// by `RecordFieldTableTests`.
public struct RecordField: Sendable {
    /// How the column stores the value.
    public enum Storage: Sendable, Hashable {
        case integer
        case text
        /// A JSON object, as text.
        case json
    }

    /// The `LogRecord` property, which is also the chunk's and the fleet's column name.
    public let name: String
    public let storage: Storage
    /// NOT NULL in the chunk and the fleet.
    public let required: Bool
    /// The keys `--style ndjson` writes the field under (the timestamp is written twice).
    public let jsonKeys: [String]
    /// The keys and aliases a predicate names the field by (docs/PREDICATES.md); empty when a
    /// predicate cannot name it (`metadata` is reached as `metadata.<key>`).
    public let predicateKeys: [String]
    /// The type of the fleet's PostgreSQL column.
    public let postgresType: String
    /// What the column holds for `record`: the code of an enumeration, a JSON object's text.
    public let value: @Sendable (LogRecord) -> SQLValue

    public var column: String { name }

    /// The column's type in a chunk's `CREATE TABLE`.
    public var sqliteType: String { storage == .integer ? "INTEGER" : "TEXT" }
}

/// Every field of a record, in chunk column order (after `id`): a new field is appended here,
/// so that older chunks keep their columns' positions (`ChunkMigration` adds it to them).
public enum RecordFields {
    public static let all: [RecordField] = [
        integer("timestamp", required: true, json: ["timestamp", "timestampNanoseconds"], keys: ["timestamp", "date"]) { .int($0.timestamp) },
        integer("receiptTime", keys: []) { optional($0.receiptTime) },
        integer("messageType", required: true, keys: ["messageType", "logType"], postgres: "smallint") { .int(Int64($0.messageType.rawValue)) },
        integer("eventType", required: true, keys: ["eventType"], postgres: "integer") { .int(Int64($0.eventType.rawValue)) },
        text("process") { optional($0.process) },
        integer("processID", keys: ["processID", "processIdentifier"]) { optional($0.processID) },
        text("processImagePath") { optional($0.processImagePath) },
        integer("userID") { optional($0.userID) },
        text("sender") { optional($0.sender) },
        text("senderImagePath") { optional($0.senderImagePath) },
        text("subsystem") { optional($0.subsystem) },
        text("category") { optional($0.category) },
        integer("threadID", keys: ["threadID", "threadIdentifier"]) { optional($0.threadID) },
        integer("activityIdentifier") { optional($0.activityIdentifier) },
        integer("parentActivityIdentifier") { optional($0.parentActivityIdentifier) },
        integer("traceID", keys: ["traceID", "traceIdentifier"]) { optional($0.traceID) },
        text("eventMessage", required: true, keys: ["eventMessage", "message", "composedMessage"]) { .text($0.eventMessage) },
        text("formatString") { optional($0.formatString) },
        integer("signpostID", keys: ["signpostID", "signpostIdentifier"]) { optional($0.signpostID) },
        text("signpostName") { optional($0.signpostName) },
        text("signpostType") { optional($0.signpostType) },
        RecordField(name: "metadata", storage: .json, required: false, jsonKeys: ["metadata"], predicateKeys: [], postgresType: "text") {
            guard let metadata = $0.metadata else { return .null }
            var writer = JSONWriter()
            writer.append(.object(metadata))
            return .text(String(decoding: writer.bytes, as: UTF8.self))
        },
        text("signpostScope") { optional($0.signpostScope) },
    ]

    /// The field of a column, by name.
    public static func named(_ name: String) -> RecordField? { all.first { $0.name == name } }

    private static func integer(
        _ name: String, required: Bool = false, json: [String]? = nil, keys: [String]? = nil, postgres: String = "bigint",
        value: @escaping @Sendable (LogRecord) -> SQLValue
    ) -> RecordField {
        RecordField(name: name, storage: .integer, required: required, jsonKeys: json ?? [name], predicateKeys: keys ?? [name],
                    postgresType: postgres, value: value)
    }

    private static func text(
        _ name: String, required: Bool = false, keys: [String]? = nil, value: @escaping @Sendable (LogRecord) -> SQLValue
    ) -> RecordField {
        RecordField(name: name, storage: .text, required: required, jsonKeys: [name], predicateKeys: keys ?? [name],
                    postgresType: "text", value: value)
    }

    private static func optional(_ value: Int64?) -> SQLValue { value.map { .int($0) } ?? .null }
    private static func optional(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
}
