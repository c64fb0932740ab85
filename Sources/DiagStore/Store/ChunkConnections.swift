import Foundation

/// Connections to chunk files kept open from one part of a thread's work to the next, so that
/// a chunk read in several time slices (`RecordCursor.disjointParts`) is opened once per thread
/// rather than once per slice: opening a chunk (the file, its WAL index, its schema) costs
/// about as much as reading a few thousand of its rows.
///
/// It keeps the reads' statements too (`statement(_:on:)`, `keep`): the slices of a chunk differ
/// only in the window's bound values, and preparing the same `SELECT` again for each was the
/// largest single cost of a selective query over a big store (a quarter of the CPU of
/// `process == "nothing"` over 10M imported records, 1,221 slices of 47 chunks).
///
/// Not thread-safe: each thread keeps its own.
public final class ChunkConnections {
    private struct Entry {
        let path: String
        let database: Database
        let tables: ChunkTables
        var mapping: Int64
        /// Statements that reads are done with (`keep`), the most recently kept last; at most
        /// `statementCapacity`.
        var statements: [Statement] = []
    }

    /// Statements kept per connection: a read's SQL differs with the window's bounds present or
    /// not (the first and last slice) and with what the chunk's tables serve.
    static let statementCapacity = 4

    /// The most recently used last; at most `capacity`.
    private var entries: [Entry] = []
    private let capacity: Int
    /// Connections opened so far (reused ones are not counted again).
    private(set) var opened = 0
    /// Statements handed out again instead of prepared (`statement(_:on:)`).
    private(set) var reusedStatements = 0

    /// Keeps up to `capacity` chunks open (each holds a page cache of up to 2 MiB).
    public init(capacity: Int = 2) {
        self.capacity = max(1, capacity)
    }

    /// The open connection to `chunk` at `path` and the tables it held when opened, opening it
    /// if needed; `mapping` above 0 maps the file's first that many bytes (`open`).
    func connection(chunk: ChunkInfo, path: String, mapping: Int64) throws -> (Database, ChunkTables) {
        if let index = entries.firstIndex(where: { $0.path == path }) {
            var entry = entries.remove(at: index)
            if mapping > entry.mapping {
                try Self.map(entry.database, bytes: mapping)
                entry.mapping = mapping
            }
            entries.append(entry)
            return (entry.database, entry.tables)
        }
        let database = try Self.open(chunk: chunk, path: path, mapping: mapping)
        let tables = try ChunkTables(database)
        opened += 1
        entries.append(Entry(path: path, database: database, tables: tables, mapping: mapping))
        if entries.count > capacity { entries.removeFirst() }
        return (database, tables)
    }

    /// A statement of `sql` on `database`, a connection this object gave out: one a read gave
    /// back (`keep`) if there is one, reset and with nothing bound, else a new one. The caller
    /// owns it until it gives it back; meanwhile another read of the same SQL gets a new one.
    func statement(_ sql: String, on database: Database) throws -> Statement {
        if let index = entries.firstIndex(where: { $0.database === database }),
           let kept = entries[index].statements.lastIndex(where: { $0.sql == sql }) {
            reusedStatements += 1
            return entries[index].statements.remove(at: kept)
        }
        return try database.prepare(sql)
    }

    /// Takes back a statement of `statement(_:on:)` that a read is done with: reset (its read
    /// transaction ended) and its values unbound. Dropped if its connection was closed since.
    func keep(_ statement: Statement) {
        statement.reset()
        statement.clearBindings()
        guard let index = entries.firstIndex(where: { $0.database === statement.database }) else { return }
        entries[index].statements.append(statement)
        if entries[index].statements.count > Self.statementCapacity { entries[index].statements.removeFirst() }
    }

    /// A reading connection to a chunk; `mapping` above 0 reads the file's first that many
    /// bytes through a memory map (SQLite maps no more than the file holds). A settled chunk
    /// (`isSettled`) is opened immutable: no lock, no WAL index to create, map and remove, which
    /// was a third of a narrow query's time per chunk.
    static func open(chunk: ChunkInfo, path: String, mapping: Int64) throws -> Database {
        let database: Database
        if isSettled(chunk, path: path) {
            database = try Database(path: path, options: .init(create: false, immutable: true))
        } else {
            database = try Database.openForReading(path: path)
            database.keepWALOnClose()
        }
        database.limitValueLength()
        // The size is a constant of ours, not user text.
        try database.execute("PRAGMA cache_size = -\(pageCacheKiB)")
        if mapping > 0 { try map(database, bytes: mapping) }
        return database
    }

    /// The page cache of a reading connection, in KiB (SQLite's default is 2,000): 128 pages of
    /// 4 KiB, room for the interior pages of the table and the index a read walks. Reads go
    /// through a chunk once (a scan, a window's rows, a search index's candidates), so pages past
    /// those are not read again, and a query holds several connections (one per thread and per
    /// merged stream, and those `ChunkConnections` keeps): at SQLite's default, a common phrase
    /// over diagd's store of 10M records peaked at 57.7 MiB, 37.2 MiB with this; the benchmark's
    /// queries took the same time within this machine's noise (2026-12-06, `/usr/bin/time -v`
    /// and `hyperfine`, docs/STORE.md "Reading").
    static let pageCacheKiB = 512

    /// Whether nothing writes the chunk any more: sealed and holding its search index (`Info.json`
    /// says so only after both were written and the WAL folded into the file; after that only
    /// expiry removes the file, which an open connection keeps reading), and no WAL with frames
    /// beside it (a fold that a reader kept from finishing leaves them; then SQLite must read them).
    static func isSettled(_ chunk: ChunkInfo, path: String) -> Bool {
        guard chunk.sealed, chunk.searchIndex else { return false }
        var status = stat()
        if stat(path + "-wal", &status) == 0 { return status.st_size == 0 }
        return errno == ENOENT
    }

    private static func map(_ database: Database, bytes: Int64) throws {
        // The size is a number of ours, not user text; a page more covers a file that grew.
        try database.execute("PRAGMA mmap_size = \(bytes + 65_536)")
    }
}

@available(*, unavailable)
extension ChunkConnections: Sendable {}
