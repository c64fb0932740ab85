import DiagModel
import DiagQuery
import DiagStore

extension FleetStatistics {
    /// The counts of `diag fleet stats`, in the tally `diag stats` prints: the SQL aggregates
    /// when PostgreSQL decides the plan exactly, otherwise each selected record counted here.
    public static func tally(connection: PostgresConnection, plan: FleetPlan) throws(FleetError) -> StatsTally {
        var tally = StatsTally()
        if plan.isExact {
            for group in try groups(connection: connection, plan: plan) {
                let key: SQLValue = group.number.map { .int($0) } ?? group.text.map { .text($0) } ?? .null
                tally.add(group.grouping, key, events: group.events, bytes: group.bytes)
            }
        } else {
            let reader = try FleetRecordReader(connection: connection, plan: plan)
            while let record = try reader.next() { tally.add(record) }
        }
        return tally
    }
}
