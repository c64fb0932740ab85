import DiagModel

extension RecordGrouping {
    /// The grouping's key in a chunk's SQL: a column, or the minute computed as `minuteStart` does.
    var keyExpression: String {
        switch self {
        case .process, .sender, .subsystem, .category, .messageType: rawValue
        case .minute: "(timestamp - ((timestamp % 60000000000) + 60000000000) % 60000000000)"
        }
    }
}

/// One group of `groupedCounts`: its key (NULL for records without the field), how many records,
/// and the UTF-8 bytes of their `eventMessage`.
public struct GroupCount: Sendable, Hashable {
    public var key: SQLValue
    public var count: Int64
    public var messageBytes: Int64

    public init(key: SQLValue, count: Int64, messageBytes: Int64) {
        self.key = key
        self.count = count
        self.messageBytes = messageBytes
    }
}

extension LogStore {
    /// Counts per group over the SQL part of `filter`, summed across chunks by aggregate SQL;
    /// sorted by count, largest first, then by key.
    public func groupedCounts(by grouping: RecordGrouping, filter: StoreFilter = StoreFilter()) throws -> [GroupCount] {
        var groups: [SQLValue: GroupCount] = [:]
        let trigrams = TrigramChoice()
        try forEachChunk(filter) { database, tables, path in
            let condition = ChunkCondition(filter: filter, tables: tables, database: database, path: path, trigrams: trigrams)
            let statement = try database.prepare("""
                SELECT \(grouping.keyExpression), count(*), coalesce(sum(length(CAST(eventMessage AS BLOB))), 0)
                FROM records\(condition.sql) GROUP BY 1
                """)
            try statement.bind(condition.bindings)
            while try statement.step() {
                let key = statement.value(at: 0)
                groups[key, default: GroupCount(key: key, count: 0, messageBytes: 0)].count += statement.int64(at: 1)
                groups[key]!.messageBytes += statement.int64(at: 2)
            }
        }
        return groups.values.sorted { left, right in
            if left.count != right.count { return left.count > right.count }
            return Self.keyOrder(left.key, right.key)
        }
    }

    private static func keyOrder(_ left: SQLValue, _ right: SQLValue) -> Bool {
        switch (left, right) {
        case (.int(let a), .int(let b)): a < b
        case (.text(let a), .text(let b)): a < b
        case (.double(let a), .double(let b)): a < b
        case (.null, _): false
        case (_, .null): true
        default: "\(left)" < "\(right)"
        }
    }
}
