import DiagGenerator
import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagFleet
@testable import DiagPredicate
@testable import DiagQuery
@testable import DiagStore

/// DiagModel's record-field table (`RecordFields.all`) against every place that spells the
/// fields by hand: the chunk's CREATE TABLE and the positions `RecordRow` binds, the fleet's
/// columns and types, the COPY rows, the NDJSON writers and the predicate's keys. A field added
/// to the table and not to one of them (or the other way round) fails here, naming both.
/// (No PostgreSQL is needed: the fleet's DDL and COPY text are read as text.)
@Suite struct RecordFieldTableTests {
    static let fields = RecordFields.all

    /// Every field set, each to a value no other field holds.
    static let record = LogRecord(
        timestamp: 1_764_409_201_123_456_789, messageType: .error, eventType: .activityCreateEvent,
        process: "proc", processID: 101, processImagePath: "/usr/bin/proc", userID: 102,
        sender: "sndr", senderImagePath: "/usr/lib/sndr.so", subsystem: "com.example.sub", category: "cat",
        threadID: 103, activityIdentifier: 104, parentActivityIdentifier: 105, traceID: 106,
        eventMessage: "the message", formatString: "the %s", signpostID: 107, signpostName: "span",
        signpostType: "begin", signpostScope: "system", metadata: ["key": .string("value"), "n": .int(3)],
        receiptTime: 1_764_409_201_223_456_789)

    /// A store holding `record` in one chunk, and that chunk's path.
    private func store(_ folder: TemporaryDirectory) throws -> (url: URL, chunk: String) {
        let url = folder.file("store")
        let store = try LogStore.open(at: url, create: true)
        try store.append([Self.record])
        try store.close()
        return (url, StoreLayout.chunkURL(url, file: try #require(StoreLayout.chunkFiles(in: url).first)).path)
    }

    private static func jsonObject(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text)")
    }

    @Test func theChunksTableDeclaresEveryFieldInOrderWithItsType() throws {
        let folder = try TemporaryDirectory("field-table")
        let database = try Database(path: try store(folder).chunk, options: .init(readOnly: true))
        let statement = try database.prepare("SELECT name, type, \"notnull\" FROM pragma_table_info('records') ORDER BY cid")
        var declared: [String] = []
        while try statement.step() {
            declared.append("\(statement.string(at: 0)) \(statement.string(at: 1))\(statement.int64(at: 2) == 1 ? " NOT NULL" : "")")
        }
        let expected = ["id INTEGER"] + Self.fields.map { "\($0.column) \($0.sqliteType)\($0.required ? " NOT NULL" : "")" }
        #expect(declared == expected)
        #expect(ChunkSchema.addedColumns.allSatisfy { added in RecordFields.named(added.name)?.sqliteType == added.declaration.split(separator: " ").last.map(String.init) })
    }

    @Test func everyColumnHoldsItsFieldAndReadsBackIntoIt() throws {
        let folder = try TemporaryDirectory("field-table")
        let (url, chunk) = try store(folder)
        let database = try Database(path: chunk, options: .init(readOnly: true))
        for field in Self.fields {
            let stored = try database.prepare("SELECT \(field.column) FROM records")
            #expect(try stored.step())
            let value = stored.value(at: 0)
            if field.storage == .json, case .text(let text) = value, case .text(let expected) = field.value(Self.record) {
                #expect(try Self.jsonObject(text) as NSDictionary == Self.jsonObject(expected) as NSDictionary, "column \(field.column)")
            } else {
                #expect(value == field.value(Self.record), "column \(field.column) holds \(value), RecordRow.bind puts another field there")
            }
        }
        #expect(try LogStore.open(at: url, options: .readOnly).records().all() == [Self.record], "RecordRow.decode reads a column into another field")
    }

    @Test func theFleetHasTheFieldsColumnsWithTheirTypes() throws {
        let fleetOnly: Set = ["bundleID", "seq", "host", "messageFolded"]
        #expect(FleetSchema.recordColumns.filter { !fleetOnly.contains($0) } == Self.fields.map(\.column))
        let create = try #require(FleetSchema.statements.first { $0.contains("CREATE TABLE IF NOT EXISTS records") })
        var declared: [String: String] = [:]
        for match in create.matches(of: #/"(\w+)" (\w+)(?: COLLATE "C")?( NOT NULL)?/#) {
            declared[String(match.1)] = String(match.2) + (match.3 == nil ? "" : " NOT NULL")
        }
        for field in Self.fields {
            #expect(declared[field.column] == field.postgresType + (field.required ? " NOT NULL" : ""), "fleet column \(field.column)")
        }
        #expect(Set(declared.keys) == Set(FleetSchema.recordColumns))
    }

    @Test func aCopyRowHoldsEveryFieldInItsColumn() throws {
        var buffer: [UInt8] = []
        try CopyRowEncoder.append(Self.record, bundleID: 1, seq: 2, host: "host", to: &buffer)
        let line = String(decoding: buffer, as: UTF8.self)
        #expect(line.hasSuffix("\n"))
        let cells = line.dropLast().split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        #expect(cells.count == FleetSchema.recordColumns.count)
        let row = Dictionary(uniqueKeysWithValues: zip(FleetSchema.recordColumns, cells))
        for field in Self.fields {
            let cell = try #require(row[field.column], "no COPY cell for \(field.column)")
            switch field.value(Self.record) {
            case .null: #expect(cell == "\\N", "\(field.column)")
            case .int(let number): #expect(cell == String(number), "COPY cell of \(field.column)")
            case .double(let number): #expect(cell == String(number), "COPY cell of \(field.column)")
            case .text(let text) where field.storage == .json:
                #expect(try Self.jsonObject(cell) as NSDictionary == Self.jsonObject(text) as NSDictionary, "\(field.column)")
            case .text(let text): #expect(cell == text, "COPY cell of \(field.column)")
            }
        }
    }

    /// The keys of one record written by each NDJSON writer: `LogRecord.writeJSON` (show on
    /// files, bundles' summaries), the store's row writer (show on stores) and the generator's.
    @Test func everyNDJSONWriterWritesEveryFieldsKeys() throws {
        let expected = Set(Self.fields.flatMap(\.jsonKeys))
        let folder = try TemporaryDirectory("field-table")
        var written: [(String, String)] = [("LogRecord.writeJSON", Self.record.jsonString())]

        let rows = try #require(try LogQuery().openStoreRows([.store(try store(folder).url)]))
        var bytes: [UInt8] = []
        try rows.writeNDJSON(threads: 1, offsets: { { _ in 0 } }) { lines, _ in bytes += lines }
        written.append(("RecordRow.appendJSON", String(decoding: bytes, as: UTF8.self)))

        let generated = folder.file("generated.ndjson").path
        let writer = try NDJSONWriter(path: generated)
        try writer.write(Self.record)
        try writer.close()
        written.append(("NDJSONWriter", try String(contentsOfFile: generated, encoding: .utf8)))

        for (writerName, text) in written {
            let keys = Set(try Self.jsonObject(text.trimmingCharacters(in: .newlines)).keys)
            #expect(keys == expected, "\(writerName) writes \(keys.subtracting(expected).sorted()) beyond the table and lacks \(expected.subtracting(keys).sorted())")
        }
    }

    @Test func thePredicatesKeysNameTheFieldsColumns() {
        for field in Self.fields {
            for key in field.predicateKeys {
                #expect(Field.byKey[key]?.column == field.column, "the predicate key \(key) does not name the column \(field.column)")
            }
        }
        let tableKeys = Set(Self.fields.flatMap(\.predicateKeys))
        for (key, field) in Field.byKey where field.column != nil {
            #expect(tableKeys.contains(key), "the predicate key \(key) (column \(field.column ?? "")) is not in the field table")
        }
        #expect(Field.metadata("key").column == RecordFields.named("metadata")?.column)
    }
}
