import DiagModel
import Foundation

/// Checks a chunk file that did not come from this machine's diagd (a chunk in a bundle) before
/// anything else reads it: its `sqlite_schema` must hold exactly what `ChunkSchema` writes (or,
/// for a chunk of the first release, exactly its one `log` table), so that no trigger, view,
/// index on an expression or other object of the author's is ever evaluated.
public enum ForeignChunk {
    /// What an accepted chunk holds.
    public enum Shape: Sendable, Equatable {
        /// The `records` table of `ChunkSchema.version`, some of its indexes, its search tables.
        case current
        /// The first release's `log` table, to be copied into a fresh chunk (`copyForward`).
        case version1
        /// The `records` table of version 2 (before the columns of `ChunkSchema.addedColumns`),
        /// its indexes and search tables, to be copied into a fresh chunk (`copyForward`).
        case version2

        /// The `PRAGMA user_version` a chunk of this shape carries (0: created, never written).
        var acceptedVersions: Set<Int> {
            switch self {
            case .current: return [0, ChunkSchema.version]
            case .version1: return [1]
            case .version2: return [2]
            }
        }

        public var version: Int {
            switch self {
            case .current: return ChunkSchema.version
            case .version1: return 1
            case .version2: return 2
            }
        }
    }

    /// The chunk's shape, read through `Database.openUntrusted`; `sqlite_schema` is the first
    /// thing read. Throws `StoreError.badChunk` naming the chunk and the first object refused.
    public static func inspect(path: String) throws -> Shape {
        do {
            let database = try Database.openUntrusted(path: path)
            return try inspect(database, path: path)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.badChunk, path: path, reason: "not a readable chunk: \(error)")
        }
    }

    static func inspect(_ database: Database, path: String) throws -> Shape {
        let rows = try schemaRows(database)
        let shape = try shape(of: rows, path: path)
        let version = try database.userVersion()
        guard shape.acceptedVersions.contains(version) else {
            throw StoreError(.badChunk, path: path, reason: "PRAGMA user_version is \(version), but the schema is that of version \(shape.version)")
        }
        return shape
    }

    /// One object of a schema: what `sqlite_schema` says of it, its SQL without whitespace or case.
    struct SchemaRow: Hashable {
        var type: String
        var name: String
        var table: String
        var sql: String

        init(type: String, name: String, table: String, sql: String) {
            self.type = type
            self.name = name
            self.table = table
            self.sql = String(sql.lowercased().unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) }.map(Character.init))
        }
    }

    static func schemaRows(_ database: Database) throws -> [SchemaRow] {
        let statement = try database.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema")
        var rows: [SchemaRow] = []
        while try statement.step() {
            rows.append(SchemaRow(type: statement.string(at: 0), name: statement.string(at: 1),
                                  table: statement.string(at: 2), sql: statement.isNull(at: 3) ? "" : statement.string(at: 3)))
            // A real chunk has about a dozen objects: a longer list is refused at the first unknown one.
            if rows.count > 64 { break }
        }
        return rows
    }

    private static func shape(of rows: [SchemaRow], path: String) throws -> Shape {
        let known = Dictionary((currentRows + [version1Table]).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for row in rows where known[row.name] != row && row != version2Records && !earlierSearchRows.contains(row) {
            let what = known[row.name] == nil ? "an object this store never writes" : "not defined as this store defines it"
            throw StoreError(.badChunk, path: path, reason: "its schema holds \(row.type) '\(TerminalText.escaped(row.name))', \(what); a chunk may hold only the records table of schema version \(ChunkSchema.version) (or the log table of version 1), its indexes and its search tables")
        }
        let names = Set(rows.map(\.name))
        if names.contains(version1Table.name) {
            guard rows.count == 1 else {
                throw StoreError(.badChunk, path: path, reason: "its schema mixes the log table of version 1 with \(rows.count - 1) other objects; a chunk of version 1 holds that table alone")
            }
            return .version1
        }
        guard names.contains("records") else {
            throw StoreError(.badChunk, path: path, reason: "its schema holds no records table (nor the log table of version 1)")
        }
        let isVersion2 = rows.contains(version2Records)
        // The search tables: none, or all of one definition, today's or the earlier one (with
        // its docsize table), never a mix.
        let search = Set(rows.filter { $0.name.hasPrefix(ChunkSchema.searchTable) })
        let current = Set(currentRows.filter { $0.name.hasPrefix(ChunkSchema.searchTable) })
        guard search.isEmpty || search == current || search == Set(earlierSearchRows) else {
            let expected = current.map(\.name).sorted().joined(separator: ", ")
            throw StoreError(.badChunk, path: path, reason: "its search index is incomplete or mixed (it has \(search.map(\.name).sorted().joined(separator: ", ")); the store writes \(expected), each as it defines them)")
        }
        return isVersion2 ? .version2 : .current
    }

    /// The search tables of a chunk indexed before `columnsize=0` (`ChunkSchema.earlierSearch`),
    /// read from such a table built in memory: accepted all together, in place of today's.
    static let earlierSearchRows: [SchemaRow] = {
        do {
            let database = try Database(path: ":memory:")
            try database.execute(ChunkSchema.earlierSearch)
            return try schemaRows(database)
        } catch {
            preconditionFailure("the earlier search table cannot be built in memory: \(error)")
        }
    }()

    static let version1Table = SchemaRow(type: "table", name: "log", table: "log", sql: """
        CREATE TABLE log (time REAL NOT NULL, level TEXT NOT NULL, proc TEXT, pid INTEGER,
                          sender TEXT, subsystem TEXT, category TEXT, tid INTEGER, activity INTEGER, msg TEXT)
        """)

    /// The records table as version 2 wrote it: today's without the columns added since.
    static let version2Records: SchemaRow = {
        var records = currentRows.first { $0.name == "records" }!
        for column in ChunkSchema.addedColumns {
            let declaration = SchemaRow(type: "", name: "", table: "", sql: column.declaration).sql
            records.sql = records.sql.replacingOccurrences(of: "," + declaration, with: "")
        }
        return records
    }()

    /// The columns a version-2 chunk has, in `ChunkSchema.columns` order.
    static var version2Columns: [String] {
        let added = Set(ChunkSchema.addedColumns.map(\.name))
        return ChunkSchema.columns.filter { !added.contains($0) }
    }

    /// Every object a chunk of this version may hold, read from a chunk built in memory by the
    /// same statements the store runs (the records table, the sealing indexes and statistics,
    /// the search index): the check follows `ChunkSchema` by construction.
    static let currentRows: [SchemaRow] = {
        do {
            let database = try Database(path: ":memory:")
            try database.execute(ChunkSchema.createRecords)
            for index in ChunkSchema.indexes { try database.execute(index.sql) }
            try database.execute("ANALYZE")
            try database.execute(ChunkSchema.createSearch)
            try database.execute(MessageBlocks.create)
            try database.execute(MessageBlocks.createMasks)
            try database.execute(MessageBlocks.createPositions)
            var rows = try schemaRows(database)
            // Statistics tables another SQLite build writes on ANALYZE.
            for (name, sql) in [("sqlite_stat1", "CREATE TABLE sqlite_stat1(tbl,idx,stat)"),
                                ("sqlite_stat4", "CREATE TABLE sqlite_stat4(tbl,idx,neq,nlt,ndlt,sample)")]
            where !rows.contains(where: { $0.name == name }) {
                rows.append(SchemaRow(type: "table", name: name, table: name, sql: sql))
            }
            return rows
        } catch {
            preconditionFailure("the chunk schema cannot be built in memory: \(error)")
        }
    }()
}
