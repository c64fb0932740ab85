import DiagModel
import DiagStore

/// The `records` columns of a chunk (docs/STORE.md) as the follower selects and decodes them:
/// the store's own column list and decoder, its refusals as `ForwardStoreError`s.
enum RecordColumns {
    static let select = ChunkRows.selectColumns

    /// The row the statement is on; a value no record can hold is refused with the chunk and id.
    static func decode(_ statement: Statement, chunk: String) throws -> LogRecord {
        do {
            return try ChunkRows.decode(statement, chunk: chunk)
        } catch let error as StoreError {
            throw ForwardStoreError(error.description)
        }
    }
}
