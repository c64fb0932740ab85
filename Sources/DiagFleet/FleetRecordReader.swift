import DiagModel
import DiagPredicate

/// Reads the records a `FleetPlan` selects, in `diag show` order — timestamp, then the bundle's
/// load order, then the bundle's own order — through a cursor, a batch at a time, so memory stays
/// flat; the plan's residual is checked here.
public final class FleetRecordReader {
    static let batchSize = 2_000
    static let columns = [
        "timestamp", "receiptTime", "messageType", "eventType", "process", "processID", "processImagePath", "userID",
        "sender", "senderImagePath", "subsystem", "category", "threadID", "activityIdentifier", "parentActivityIdentifier",
        "traceID", "eventMessage", "formatString", "signpostID", "signpostName", "signpostType", "metadata",
        "signpostScope",
    ]

    private let connection: PostgresConnection
    private let residual: Predicate?
    private var batch: PostgresResult?
    private var row = 0
    private var done = false

    /// Opens the cursor in a read-only transaction; `close()` (or the end of the rows) ends it.
    public init(connection: PostgresConnection, plan: FleetPlan) throws(FleetError) {
        self.connection = connection
        residual = plan.residual
        try FleetSchema.requireLoaded(connection)
        try connection.execute("BEGIN READ ONLY")
        // Every row is read: plan for the whole result, not for the first 10% (the cursor default).
        try connection.execute("SET LOCAL cursor_tuple_fraction = 1.0")
        let columns = Self.columns.map { "\"\($0)\"" }.joined(separator: ", ")
        do {
            try connection.execute(
                #"DECLARE fleet_records NO SCROLL CURSOR FOR SELECT \#(columns) FROM records WHERE \#(plan.whereSQL) ORDER BY "timestamp", "bundleID", "seq""#,
                plan.parameters.values)
        } catch {
            done = true
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }

    deinit { if !done { _ = try? connection.execute("ROLLBACK") } }

    public func next() throws(FleetError) -> LogRecord? {
        while !done {
            if let batch, row < batch.rowCount {
                let record = try Self.record(batch, row)
                row += 1
                if let residual, !residual.evaluate(record) { continue }
                return record
            }
            if let batch, batch.rowCount < Self.batchSize {
                close()
                return nil
            }
            batch = try connection.execute("FETCH FORWARD \(Self.batchSize) FROM fleet_records")
            row = 0
        }
        return nil
    }

    public func close() {
        guard !done else { return }
        done = true
        batch = nil
        _ = try? connection.execute("COMMIT")
    }

    static func record(_ result: PostgresResult, _ row: Int) throws(FleetError) -> LogRecord {
        func int(_ column: Int) -> Int64? { result.int64(row: row, column: column) }
        func text(_ column: Int) -> String? { result.text(row: row, column: column) }
        guard let timestamp = int(0), let level = int(2).flatMap({ MessageType(rawValue: Int($0)) }),
              let event = int(3).flatMap({ EventType(rawValue: Int($0)) }), let message = text(16)
        else { throw .failure("a row of records has no timestamp, level, event type or message it can read") }
        var record = LogRecord(
            timestamp: timestamp, messageType: level, eventType: event,
            process: text(4), processID: int(5), processImagePath: text(6), userID: int(7),
            sender: text(8), senderImagePath: text(9), subsystem: text(10), category: text(11),
            threadID: int(12), activityIdentifier: int(13), parentActivityIdentifier: int(14), traceID: int(15),
            eventMessage: message, formatString: text(17), signpostID: int(18), signpostName: text(19),
            signpostType: text(20), signpostScope: text(22))
        record.receiptTime = int(1)
        if let metadata = text(21) {
            do {
                record.metadata = try JSONReader.parseObject(metadata)
            } catch {
                throw .failure("the metadata of a row (timestamp \(timestamp)) is not a JSON object: \(error)")
            }
        }
        return record
    }
}

@available(*, unavailable)
extension FleetRecordReader: Sendable {}
