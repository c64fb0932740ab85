/// Connections to chunk files kept open from one part of a thread's work to the next, so that
/// a chunk read in several time slices (`RecordCursor.disjointParts`) is opened once per thread
/// rather than once per slice: opening a chunk (the file, its WAL index, its schema) costs
/// about as much as reading a few thousand of its rows.
///
/// Not thread-safe: each thread keeps its own.
public final class ChunkConnections {
    private struct Entry {
        let path: String
        let database: Database
        let tables: ChunkTables
        var mapping: Int64
    }

    /// The most recently used last; at most `capacity`.
    private var entries: [Entry] = []
    private let capacity: Int
    /// Connections opened so far (reused ones are not counted again).
    private(set) var opened = 0

    /// Keeps up to `capacity` chunks open (each holds a page cache of up to 2 MiB).
    public init(capacity: Int = 2) {
        self.capacity = max(1, capacity)
    }

    /// The open connection to `path` and the tables it held when opened, opening it if needed;
    /// `mapping` above 0 maps the file's first that many bytes (`open`).
    func connection(path: String, mapping: Int64) throws -> (Database, ChunkTables) {
        if let index = entries.firstIndex(where: { $0.path == path }) {
            var entry = entries.remove(at: index)
            if mapping > entry.mapping {
                try Self.map(entry.database, bytes: mapping)
                entry.mapping = mapping
            }
            entries.append(entry)
            return (entry.database, entry.tables)
        }
        let database = try Self.open(path: path, mapping: mapping)
        let tables = try ChunkTables(database)
        opened += 1
        entries.append(Entry(path: path, database: database, tables: tables, mapping: mapping))
        if entries.count > capacity { entries.removeFirst() }
        return (database, tables)
    }

    /// A reading connection to a chunk; `mapping` above 0 reads the file's first that many
    /// bytes through a memory map (SQLite maps no more than the file holds).
    static func open(path: String, mapping: Int64) throws -> Database {
        let database = try Database.openForReading(path: path)
        if mapping > 0 { try map(database, bytes: mapping) }
        return database
    }

    private static func map(_ database: Database, bytes: Int64) throws {
        // The size is a number of ours, not user text; a page more covers a file that grew.
        try database.execute("PRAGMA mmap_size = \(bytes + 65_536)")
    }
}

@available(*, unavailable)
extension ChunkConnections: Sendable {}
