import DiagModel
import DiagQuery
import DiagStore
import Foundation

/// The Error and Fault records of one snapshot chunk, in time order, read with a plain
/// connection: the store's own reader memory-maps chunks, which a collection of a large store
/// would count in its resident size chunk after chunk.
struct ChunkErrorStream: RecordStream {
    private let database: Database
    private let statement: Statement
    private let path: String

    init(_ source: SummarySource) throws {
        path = source.name
        database = try source.open()
        // One of these is open per chunk at once: keep each one's page cache (and sorter) small.
        try database.execute("PRAGMA cache_size = -256")
        statement = try database.prepare("SELECT \(ChunkRows.selectColumns) FROM records WHERE messageType IN (16, 17) ORDER BY timestamp, id")
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

    /// Every chunk's errors, merged in time order.
    static func merged(_ sources: [SummarySource]) throws -> MergedRecordStream {
        MergedRecordStream(try sources.map { try ChunkErrorStream($0) })
    }
}
