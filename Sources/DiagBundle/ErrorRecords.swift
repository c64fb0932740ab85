import DiagModel
import DiagQuery
import DiagStore
import Foundation

/// The records of one snapshot chunk that a `WHERE` selects, in time order, read with a plain
/// connection: the store's own reader memory-maps chunks, which a collection of a large store
/// would count in its resident size chunk after chunk. The summaries (errors), the patterns and
/// the triage view of report.html all read chunks through it.
struct SnapshotChunkStream: RecordStream {
    private let database: Database
    private let statement: Statement
    private let path: String

    /// Conditions callers write here: they are this module's own SQL, never user input.
    static let errors = "messageType IN (16, 17)"
    static let everything = "1"

    init(_ source: SummarySource, where condition: String) throws {
        path = source.name
        database = try source.open()
        // One of these is open per chunk at once: keep each one's page cache (and sorter) small.
        try database.execute("PRAGMA cache_size = -256")
        statement = try database.prepare("SELECT \(ChunkRows.selectColumns) FROM records WHERE \(condition) ORDER BY timestamp, id")
    }

    /// The next record; a row no record can hold is refused with the chunk, row id and column.
    mutating func next() throws -> LogRecord? {
        guard try statement.step() else { return nil }
        do {
            return try ChunkRows.decode(statement, chunk: path)
        } catch let error as StoreError {
            throw BundleError.failure(error.description)
        }
    }

    /// Every chunk's selected records, merged in time order.
    static func merged(_ sources: [SummarySource], where condition: String) throws -> MergedRecordStream {
        MergedRecordStream(try sources.map { try SnapshotChunkStream($0, where: condition) })
    }
}
