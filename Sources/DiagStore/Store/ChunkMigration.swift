/// Upgrades chunk files written by older versions to `ChunkSchema.version`, in place.
///
/// Version 1 (the first release) kept one table `log` with seconds as REAL and levels as names:
///
///     CREATE TABLE log (time REAL NOT NULL, level TEXT NOT NULL, proc TEXT, pid INTEGER,
///                       sender TEXT, subsystem TEXT, category TEXT, tid INTEGER,
///                       activity INTEGER, msg TEXT);   -- PRAGMA user_version = 1
///
/// The upgrade moves rows from `log` to `records` in batches by rowid, each batch in its own
/// transaction that also deletes the moved rows: SQLite streams every batch, so memory stays
/// bounded whatever the chunk's size, freed pages are reused, and an interrupted upgrade resumes
/// where it stopped (what is left in `log` is exactly what remains to move).
enum ChunkMigration {
    /// The schema version of a chunk file, read without changing it; 0 for a file with no table yet.
    static func schemaVersion(ofChunkAt path: String) throws -> Int {
        do {
            let database = try Database.openForReading(path: path)
            let version = try database.userVersion()
            if version == 0, try database.scalarInt("SELECT count(*) FROM sqlite_master WHERE name = 'records'") == 1 {
                return ChunkSchema.version
            }
            return version
        } catch {
            throw StoreError.chunk(path, error)
        }
    }

    /// Upgrades the chunk at `path`; `afterBatch` is told the number of rows moved so far.
    static func migrate(chunkAt path: String, batchSize: Int, afterBatch: (Int) throws -> Void = { _ in }) throws {
        do {
            let database = try Database(path: path, options: .init(create: false))
            try database.execute(ChunkSchema.writerPragmas)
            let version = try database.userVersion()
            switch version {
            case ChunkSchema.version:
                return
            case 0:
                // A file created and never written (a crash right after creating it).
                try database.inTransaction(.immediate) {
                    try database.execute(ChunkSchema.createRecords)
                    try database.setUserVersion(ChunkSchema.version)
                }
            case 1:
                try migrateFromVersion1(database, batchSize: max(1, batchSize), afterBatch: afterBatch)
            case 2:
                try addMissingColumns(database)
            default:
                throw StoreError(.unsupportedVersion, path: path,
                                 reason: "chunk schema version \(version) has no upgrade; accepted: 1 to \(ChunkSchema.version)")
            }
        } catch {
            throw StoreError.chunk(path, error)
        }
    }

    /// Version 2 lacks the columns added since (`ChunkSchema.addedColumns`): `ADD COLUMN` of a
    /// nullable column only rewrites the schema, not the rows, so this takes a moment whatever
    /// the chunk's size. A column the chunk already has (an upgrade interrupted between two
    /// columns) is left as it is.
    private static func addMissingColumns(_ database: Database) throws {
        try database.inTransaction(.immediate) {
            let present = try database.columnNames(ofTable: "records")
            for column in ChunkSchema.addedColumns where !present.contains(column.name) {
                try database.execute("ALTER TABLE records ADD COLUMN \(column.declaration)")
            }
            try database.setUserVersion(ChunkSchema.version)
        }
    }

    /// The `records` columns a version-1 row fills, and the expressions over `log` that fill them.
    static let version1Columns = """
        id, timestamp, messageType, eventType, process, processID, sender, subsystem,
        category, threadID, activityIdentifier, eventMessage, metadata
        """
    static let version1Values = """
        rowid,
        CAST(round(time * 1000000.0) AS INTEGER) * 1000,
        CASE lower(level) WHEN 'default' THEN 0 WHEN 'info' THEN 1 WHEN 'debug' THEN 2
                          WHEN 'error' THEN 16 WHEN 'fault' THEN 17 ELSE 0 END,
        1024, proc, pid, sender, subsystem, category, tid, activity, coalesce(msg, ''),
        CASE WHEN lower(level) IN ('default', 'info', 'debug', 'error', 'fault') THEN NULL
             ELSE json_object('version1Level', level) END
        """

    private static let copyVersion1Batch =
        "INSERT INTO records (\(version1Columns)) SELECT \(version1Values) FROM log WHERE rowid <= ?"

    private static func migrateFromVersion1(_ database: Database, batchSize: Int, afterBatch: (Int) throws -> Void) throws {
        try database.execute(ChunkSchema.createRecords)
        let batchEnd = try database.prepare("SELECT rowid FROM log ORDER BY rowid LIMIT 1 OFFSET ?")
        let lastRow = try database.prepare("SELECT max(rowid) FROM log")
        let copy = try database.prepare(copyVersion1Batch)
        let delete = try database.prepare("DELETE FROM log WHERE rowid <= ?")
        var moved = 0
        while true {
            let done: Bool = try database.inTransaction(.immediate) {
                try batchEnd.bind([batchSize - 1])
                var upper: Int64?
                if try batchEnd.step() { upper = batchEnd.int64(at: 0) }
                batchEnd.reset()
                if upper == nil {
                    if try lastRow.step(), !lastRow.isNull(at: 0) { upper = lastRow.int64(at: 0) }
                    lastRow.reset()
                }
                guard let upper else { return true }
                try copy.bind([upper])
                try copy.run()
                moved += database.changes
                try delete.bind([upper])
                try delete.run()
                return false
            }
            if done { break }
            try afterBatch(moved)
        }
        try database.inTransaction(.immediate) {
            try database.execute("DROP TABLE log")
            try database.setUserVersion(ChunkSchema.version)
        }
        try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}

extension Database {
    /// The names of a table's columns, as `PRAGMA table_info` lists them.
    func columnNames(ofTable table: String) throws -> Set<String> {
        let statement = try prepare("SELECT name FROM pragma_table_info(?)")
        try statement.bind([table])
        var names: Set<String> = []
        while try statement.step() { names.insert(statement.string(at: 0)) }
        return names
    }
}
