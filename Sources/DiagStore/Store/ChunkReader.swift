import DiagModel
import Foundation

/// One chunk's matching rows in timestamp order, read through a read-only connection.
final class ChunkReader {
    let chunk: ChunkInfo
    let path: String
    private let database: Database
    let statement: Statement
    /// The row the statement is on, if any.
    private(set) var timestamp: Int64 = 0
    private(set) var id: Int64 = 0
    private(set) var hasRow = false
    /// Whether the rows are asked for in id order (`readsInIDOrder`), which `advance` checks is
    /// their time order.
    private var idOrder = false
    /// Where the statement came from and goes back to when the reader is done with it.
    private let connections: ChunkConnections?

    /// Opens the chunk (or takes its connection from `connections`) and runs the query
    /// (`trigrams` picks the search index's lookups); nil when the chunk vanished (expired
    /// meanwhile) or holds no table yet (being created).
    /// `mapped` reads a sealed chunk's file through a memory map (`RecordCursor.mapsChunks`); a
    /// chunk still written is never mapped.
    init?(chunk: ChunkInfo, path: String, filter: StoreFilter, trigrams: TrigramChoice = TrigramChoice(),
          mapped: Bool = false, connections: ChunkConnections? = nil) throws {
        self.chunk = chunk
        self.connections = connections
        // Mapped only when the cursor allows it: mapped chunk pages count in RSS, and a query's
        // memory must stay flat (under 64 MiB for a million records) whatever the store's size.
        let mapping = mapped && chunk.sealed ? chunk.byteCount : 0
        let opened: (path: String, database: Database, tables: ChunkTables)?
        do {
            opened = try StoreLayout.openingChunk(at: path) { path in
                guard FileManager.default.fileExists(atPath: path) else { return nil }
                if let connections {
                    let (database, tables) = try connections.connection(chunk: chunk, path: path, mapping: mapping)
                    return (path, database, tables)
                }
                let database = try ChunkConnections.open(chunk: chunk, path: path, mapping: mapping)
                return (path, database, try ChunkTables(database))
            }
        } catch {
            throw StoreError.chunk(path, error)
        }
        guard let opened else { return nil }
        let (path, database, tables) = opened
        self.path = path
        self.database = database
        do {
            guard tables.hasRecords else { return nil }
            let condition = ChunkCondition(filter: filter, chunk: chunk, tables: tables, database: database, path: path, trigrams: trigrams)
            idOrder = Self.readsInIDOrder(chunk: chunk, filter: filter, condition: condition)
            let order = idOrder ? "id" : "timestamp, id"
            let limit = filter.limit.map { " LIMIT \(max(0, $0))" } ?? ""
            let select = { (table: String) in "SELECT \(ChunkSchema.selectColumns) FROM \(table)\(condition.sql) ORDER BY \(order)\(limit)" }
            var sql = select("records")
            if Self.mayScanInsteadOfWalkingTime(chunk: chunk, filter: filter, idOrder: idOrder),
               try Self.walksTimestampIndex(database, sql: sql, bindings: condition.bindings) {
                sql = select("records NOT INDEXED")
            }
            statement = try connections?.statement(sql, on: database) ?? database.prepare(sql)
            try statement.bind(condition.bindings)
        } catch {
            throw StoreError.chunk(path, error)
        }
        try advance()
    }

    /// Whether the read asks SQLite for the rows in id order, the same as (timestamp, id) order
    /// in a chunk whose ids follow time (`ChunkInfo.timeOrdered`), instead of sorting them: when
    /// it picks them by id (a search index's candidates, which SQLite then visits in id order)
    /// in the whole chunk. A time window keeps the sort, so that SQLite may still walk the
    /// timestamp index through the window, which `ORDER BY id` would make it weigh against a
    /// sort. On a chunk of 200,000 imported records, a common phrase's 11,131 rows took 49 ms
    /// sorted (the sort spilling 2 MiB at a time to a temporary file) and 40 ms in id order.
    static func readsInIDOrder(chunk: ChunkInfo, filter: StoreFilter, condition: ChunkCondition) -> Bool {
        chunk.sealed && chunk.timeOrdered == true && condition.selectsByID && filter.start == nil && filter.end == nil
    }

    /// Whether the read may be worth a look at SQLite's plan (`walksTimestampIndex`): a sealed
    /// chunk whose ids do not follow time, read whole and sorted (no limit, and no window, or
    /// one that holds the chunk's whole time range: `--last 1h` over a store of the last hour).
    /// There SQLite walks the timestamp index from end to end when no other index serves the
    /// condition (a `MATCHES`, a short needle, a needle in a chunk the search index does not
    /// cover yet), to get the order without a sort; but each step of that walk reads a row
    /// somewhere else in the file, and the condition drops most of them. Read in id order
    /// instead (`NOT INDEXED`: the table from start to end, rowid lookups still allowed, a
    /// window a mere condition) and the kept rows sorted, the same rows come out in the same
    /// order for less: through diagd at 1M records, 5 of 6 chunks without their search index
    /// yet, `MATCHES ".*batch [0-9]+/4.*"` (55,380 records) took 0.59 s instead of 1.08 s, and
    /// a `CONTAINS` of one letter (every record kept, the sort spilling) 2.64 s instead of
    /// 3.21 s. A window that cuts the chunk keeps the walk (it reads only its own part of the
    /// index), and so does a limit, which stops the walk early; a chunk in time order has its
    /// id order read already (`readsInIDOrder`), or a walk in the same order as a scan.
    /// `Info.json`'s time range only decides how the chunk is read: the window stays in the
    /// query either way, so a range that lies costs time, never a record.
    static func mayScanInsteadOfWalkingTime(chunk: ChunkInfo, filter: StoreFilter, idOrder: Bool) -> Bool {
        guard chunk.sealed, chunk.timeOrdered != true, !idOrder, filter.limit == nil else { return false }
        guard filter.start != nil || filter.end != nil else { return true }
        guard let oldest = chunk.oldestTimestamp, let newest = chunk.newestTimestamp else { return false }
        return (filter.start.map { $0 <= oldest } ?? true) && (filter.end.map { newest < $0 } ?? true)
    }

    /// Whether SQLite's plan for `sql` walks the timestamp index: the whole of it (`SCAN …
    /// USING INDEX records_timestamp`) or a range of it (`SEARCH … USING INDEX
    /// records_timestamp (timestamp>? …)`, which is the whole of it when the window holds the
    /// chunk); another index has another name.
    static func walksTimestampIndex(_ database: Database, sql: String, bindings: [SQLValueConvertible?]) throws -> Bool {
        let plan = try database.prepare("EXPLAIN QUERY PLAN " + sql)
        try plan.bind(bindings)
        let index = "INDEX \(StoreLayout.timestampIndex)"
        while try plan.step() {
            // Columns: id, parent, notused, detail.
            let detail = plan.string(at: 3)
            if detail.hasPrefix("SCAN "), detail.hasSuffix(index) { return true }
            if detail.hasPrefix("SEARCH "), detail.contains(index + " (timestamp") { return true }
        }
        return false
    }

    deinit {
        connections?.keep(statement)
    }

    /// Moves to the next row.
    func advance() throws {
        let hadRow = hasRow
        do {
            hasRow = try statement.step()
        } catch {
            hasRow = false
            throw StoreError.chunk(path, error)
        }
        guard hasRow else { return }
        let next = statement.int64(at: 1)
        if idOrder, hadRow, next < timestamp {
            hasRow = false
            throw StoreError(.badChunk, path: path, reason: "Info.json says this chunk's records are in time order by id "
                + "(\"timeOrdered\"), but record \(statement.int64(at: 0)) (time \(next)) comes after record \(id) "
                + "(time \(timestamp)); remove \"timeOrdered\" from the chunk's entry in Info.json to read it sorted")
        }
        timestamp = next
        id = statement.int64(at: 0)
    }

    /// The record of the current row.
    func record() throws -> LogRecord {
        try RecordRow.decode(statement, chunk: path)
    }
}

@available(*, unavailable)
extension ChunkReader: Sendable {}

/// Which tables a chunk file holds, read from the file itself: `Info.json` may lag behind
/// another process (diagd sealing, `diag index` indexing).
struct ChunkTables {
    var hasRecords = false
    var hasSearchIndex = false
    /// The writer's block sets (`MessageBlocks`), which cover every row when present.
    var hasMessageBlocks = false
    /// The blocks' record masks (`MessageBlocks.masksTable`), which cover every row when present.
    var hasRecordMasks = false
    /// The sets turned around at the seal (`MessageBlocks.buildPositionBlocks`).
    var hasPositionBlocks = false
    /// `records_timestamp`, which a sealed chunk has.
    var hasTimestampIndex = false

    init(_ database: Database) throws {
        let statement = try database.prepare("""
            SELECT name FROM sqlite_master
            WHERE (name IN ('records', '\(ChunkSchema.searchTable)', '\(MessageBlocks.table)', '\(MessageBlocks.masksTable)',
                            '\(MessageBlocks.positionsTable)')
                   AND type = 'table')
               OR (name = '\(StoreLayout.timestampIndex)' AND type = 'index')
            """)
        while try statement.step() {
            switch statement.string(at: 0) {
            case "records": hasRecords = true
            case MessageBlocks.table: hasMessageBlocks = true
            case MessageBlocks.masksTable: hasRecordMasks = true
            case MessageBlocks.positionsTable: hasPositionBlocks = true
            case StoreLayout.timestampIndex: hasTimestampIndex = true
            default: hasSearchIndex = true
            }
        }
    }
}
