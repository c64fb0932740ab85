import DiagModel

/// `diag fleet stats` in SQL: events and message bytes per process, sender, subsystem, category,
/// level and minute, in one scan (`GROUPING SETS`) — only for plans SQL decides exactly.
public enum FleetStatistics {
    public struct Group: Sendable, Equatable {
        public var grouping: RecordGrouping
        /// The key: text (nil for a missing field) for the text groupings, the level's code or
        /// the minute's first nanosecond otherwise.
        public var text: String?
        public var number: Int64?
        public var events: Int64
        public var bytes: Int64
    }

    public static func groups(connection: PostgresConnection, plan: FleetPlan) throws(FleetError) -> [Group] {
        guard plan.isExact else {
            throw .failure("internal: SQL aggregates asked for a plan with a residual; count its records instead")
        }
        try FleetSchema.requireLoaded(connection)
        let minute = #"("timestamp" - (("timestamp" % 60000000000) + 60000000000) % 60000000000)"#
        // One grouping set per grouping, in `RecordGrouping.allCases` order, which the rows'
        // GROUPING() bits are read back in.
        let keys = RecordGrouping.allCases.map { $0 == .minute ? "minute" : "\"\($0.rawValue)\"" }
        let result = try connection.execute("""
            SELECT GROUPING(\(keys.joined(separator: ", "))),
                   \(keys.joined(separator: ", ")),
                   count(*), coalesce(sum(octet_length("eventMessage")), 0)
            FROM (SELECT "process", "sender", "subsystem", "category", "messageType", "eventMessage", \(minute) AS minute
                  FROM records WHERE \(plan.whereSQL)) AS selected
            GROUP BY GROUPING SETS (\(keys.map { "(\($0))" }.joined(separator: ", ")))
            """, plan.parameters.values)
        var groups: [Group] = []
        for row in 0..<result.rowCount {
            guard let mask = result.int64(row: row, column: 0), let events = result.int64(row: row, column: 7),
                  let bytes = result.int64(row: row, column: 8)
            else { throw .failure("an aggregate row of the database could not be read") }
            // GROUPING(a, …, f): bit 5 for a … bit 0 for f, set when the column is not grouped.
            guard let position = (0..<6).first(where: { mask & (1 << (5 - $0)) == 0 }) else { continue }
            let grouping = RecordGrouping.allCases[position]
            let column = position + 1
            switch grouping {
            case .messageType, .minute:
                groups.append(Group(grouping: grouping, text: nil, number: result.int64(row: row, column: column), events: events, bytes: bytes))
            default:
                groups.append(Group(grouping: grouping, text: result.text(row: row, column: column), number: nil, events: events, bytes: bytes))
            }
        }
        return groups
    }
}
