import DiagModel
import DiagStore
import Foundation

/// The rows of one store that match a query, in time order, for a reader that wants them
/// without decoding every record (`diag show --style ndjson` writes them straight from the
/// columns). The residual is checked on the message column alone, so this path exists only
/// when the residual reads nothing else (`QueryCondition.messageResidual`).
///
/// Not thread-safe: read from one task.
public final class StoreRows {
    private let cursor: RecordCursor
    private let messageResidual: ((String) -> Bool)?

    init(cursor: RecordCursor, messageResidual: ((String) -> Bool)?) {
        self.cursor = cursor
        self.messageResidual = messageResidual
    }

    /// The next matching row, valid until the next call; nil at the end.
    public func next() throws -> StoredRow? {
        do {
            while let row = try cursor.nextRow() {
                if let messageResidual, !messageResidual(row.message) { continue }
                return row
            }
            return nil
        } catch let error as StoreError {
            throw QueryError(error: error)
        }
    }

    /// Appends `row` as NDJSON (`StoredRow.appendJSON`); a damaged row is a `QueryError`, as
    /// it is when the record is read.
    public func appendJSON(of row: StoredRow, offsetSeconds: Int, to bytes: inout [UInt8]) throws {
        do {
            try row.appendJSON(offsetSeconds: offsetSeconds, to: &bytes)
        } catch let error as StoreError {
            throw QueryError(error: error)
        }
    }
}

@available(*, unavailable)
extension StoreRows: Sendable {}

extension LogQuery {
    /// The rows of `sources` when they are one store directory and the condition's residual,
    /// if any, reads only the message; nil otherwise (then `open` is the way).
    public func openStoreRows(_ sources: [QuerySource]) throws -> StoreRows? {
        guard sources.count == 1, case .store(let url) = sources[0] else { return nil }
        if let condition, condition.residual != nil, condition.messageResidual == nil { return nil }
        let cursor = try StoreRecordStream.cursor(store: url, selection: selection, condition: condition)
        return StoreRows(cursor: cursor, messageResidual: condition?.residual == nil ? nil : condition?.messageResidual)
    }
}
