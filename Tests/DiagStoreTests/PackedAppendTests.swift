import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

/// diagd's writer appends packed rows (`PackedRecords`); they must store exactly what
/// `append(_:)` stores for the same records.
@Suite struct PackedAppendTests {
    static let records = (0..<60).map { StoreTestRecords.full($0) }
        + [StoreTestRecords.minimal(0, timestamp: StoreTestRecords.base + 999_999)]
        + [LogRecord(timestamp: StoreTestRecords.base - 5, sender: "", eventMessage: "", metadata: [:])]

    @Test func packedRowsStoreWhatRecordsStore() throws {
        let folder = try TemporaryDirectory()
        let byRecords = try LogStore.open(at: folder.file("records.logarchive"), create: true)
        let byRows = try LogStore.open(at: folder.file("rows.logarchive"), create: true)
        try byRecords.append(Self.records)
        try byRows.append(packed: PackedRecords(Self.records.prefix(30)))
        try byRows.append(packed: PackedRecords(Self.records.dropFirst(30)))
        #expect(try byRows.records().all() == byRecords.records().all())
        #expect(try Set(byRows.records().all()) == Set(Self.records))
        // Column by column, as SQLite has them: an empty text stays an empty text, not NULL.
        #expect(try rows(byRows) == rows(byRecords))
        #expect(byRows.info.recordCount == Int64(Self.records.count))
        #expect(byRows.info.oldestTimestamp == StoreTestRecords.base - 5)
        #expect(byRows.info.newestTimestamp == byRecords.info.newestTimestamp)
    }

    @Test func aPackedRowHasEveryColumnOfTheTable() {
        #expect(PackedRecords.columnCount == RecordFields.all.count)
        #expect(PackedRecords.columnCount == ChunkSchema.columns.count - 1)
    }

    @Test func packedRowsReadBackAsTheirRecords() throws {
        #expect(try PackedRecords(Self.records).records() == Self.records)
        #expect(try PackedRecords().records().isEmpty)
    }

    private func rows(_ store: LogStore) throws -> [String] {
        let database = try Database(path: store.chunkPath(store.info.chunks[0].file), options: .init(readOnly: true))
        let columns = ChunkSchema.columns.dropFirst().map { "quote(\($0))" }.joined(separator: " || '|' || ")
        var rows: [String] = []
        let statement = try database.prepare("SELECT \(columns) FROM records ORDER BY id")
        while try statement.step() { rows.append(statement.string(at: 0)) }
        return rows
    }
}
