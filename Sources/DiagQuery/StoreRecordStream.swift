import DiagModel
import DiagStore
import Foundation

/// A query over a store directory: levels, processes, senders and the predicate's plan go to
/// SQL; the store merges its chunks in time order; the residual is checked here.
struct StoreRecordStream: RecordStream {
    private let cursor: RecordCursor
    private let residual: ((LogRecord) -> Bool)?

    init(store url: URL, selection: RecordSelection, condition: QueryCondition?) throws {
        cursor = try Self.cursor(store: url, selection: selection, condition: condition)
        residual = condition?.residual
    }

    /// The store's records that pass the SQL part of the selection and the condition.
    static func cursor(store url: URL, selection: RecordSelection, condition: QueryCondition?) throws -> RecordCursor {
        let store: LogStore
        do {
            store = try LogStore.openForReading(at: url)
        } catch let error as StoreError {
            throw QueryError(error: error)
        }
        var clauses: [String] = []
        var bindings: [SQLValue] = []
        if let own = selection.sqlCondition {
            clauses.append(own.sql)
            bindings += own.bindings
        }
        if let sql = condition?.sqlWhere, !sql.isEmpty {
            clauses.append("(\(sql))")
            bindings += condition?.bindings ?? []
        }
        let filter = StoreFilter(
            start: Self.later(selection.start, condition?.start),
            end: Self.earlier(selection.end, condition?.end),
            whereSQL: clauses.isEmpty ? nil : clauses.joined(separator: " AND "),
            bindings: bindings,
            messageSearch: condition?.messageSearch ?? [])
        return store.records(filter: filter)
    }

    mutating func next() throws -> LogRecord? {
        do {
            while let record = try cursor.next() {
                if let residual, !residual(record) { continue }
                return record
            }
            return nil
        } catch let error as StoreError {
            throw QueryError(error: error)
        }
    }

    private static func later(_ a: Int64?, _ b: Int64?) -> Int64? {
        guard let a else { return b }
        guard let b else { return a }
        return max(a, b)
    }

    private static func earlier(_ a: Int64?, _ b: Int64?) -> Int64? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }
}

extension QueryError {
    init(error: StoreError) {
        switch error.kind {
        case .badInfo, .badChunk, .badRecord, .unsupportedVersion: self.init(error.description, badInput: true)
        default: self.init(error.description)
        }
    }
}
