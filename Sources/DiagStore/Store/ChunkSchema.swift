import DiagModel

/// The SQL of a chunk file at store format version 3 (docs/ARCHITECTURE.md, "The chunk schema").
enum ChunkSchema {
    /// `PRAGMA user_version` of a chunk written by this version. Version 3 added `signpostScope`
    /// (at the end, so that the columns of version 2 keep their indexes); `ChunkMigration` adds
    /// any column of `addedColumns` a chunk lacks.
    static let version = 3

    static let createRecords = """
        CREATE TABLE IF NOT EXISTS records (
          id INTEGER PRIMARY KEY,
          timestamp INTEGER NOT NULL,
          receiptTime INTEGER,
          messageType INTEGER NOT NULL,
          eventType INTEGER NOT NULL,
          process TEXT, processID INTEGER, processImagePath TEXT, userID INTEGER,
          sender TEXT, senderImagePath TEXT, subsystem TEXT, category TEXT,
          threadID INTEGER, activityIdentifier INTEGER, parentActivityIdentifier INTEGER, traceID INTEGER,
          eventMessage TEXT NOT NULL, formatString TEXT,
          signpostID INTEGER, signpostName TEXT, signpostType TEXT,
          metadata TEXT,
          signpostScope TEXT
        )
        """

    /// Columns added after version 2, with their declarations, in the order they were added.
    static let addedColumns: [(name: String, declaration: String)] = [
        ("signpostScope", "signpostScope TEXT"),
    ]

    /// The columns in the order `RecordRow` reads and `ChunkWriter` binds them: `id`, then the
    /// record's fields in DiagModel's table (`RecordFields.all`), which `createRecords` declares
    /// in the same order (`RecordFieldTableTests`).
    static let columns = ["id"] + RecordFields.all.map(\.column)

    static let selectColumns = columns.joined(separator: ", ")

    /// Every column but `id`, which SQLite assigns.
    static let insert: String = {
        let names = columns.dropFirst()
        return "INSERT INTO records (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))"
    }()

    /// Built when a chunk is sealed, so that the ingest path pays for none of them.
    static let indexes: [(name: String, sql: String)] = [
        ("records_timestamp", "CREATE INDEX IF NOT EXISTS records_timestamp ON records(timestamp)"),
        ("records_process", "CREATE INDEX IF NOT EXISTS records_process ON records(process, timestamp)"),
        ("records_sender", "CREATE INDEX IF NOT EXISTS records_sender ON records(sender, timestamp)"),
        ("records_subsystem", "CREATE INDEX IF NOT EXISTS records_subsystem ON records(subsystem, timestamp)"),
        ("records_level", "CREATE INDEX IF NOT EXISTS records_level ON records(messageType, timestamp)"),
        ("records_activity", "CREATE INDEX IF NOT EXISTS records_activity ON records(activityIdentifier)"),
    ]

    /// The contentless trigram index over folded messages; rowid = records.id.
    static let searchTable = StoreLayout.searchTable
    /// `columnsize=0`: FTS5 keeps no `message_search_docsize` table, a row per record of each
    /// message's token count that only ranking (`bm25`) reads, and no query here ranks. Without
    /// that table, `diag index` of two chunks of diagd records (388,536) took 5.34 s instead of 5.85 s
    /// (user 4.92 s instead of 5.35 s; medians of 8 runs each, alternating), and one chunk's index
    /// took 17.8 MB instead of 19.7 MB.
    static let createSearch = """
        CREATE VIRTUAL TABLE IF NOT EXISTS message_search
        USING fts5(message, content='', detail='none', columnsize=0, tokenize='trigram case_sensitive 1')
        """
    /// The search table as stores and bundles written before `columnsize=0` hold it, with its
    /// `message_search_docsize`: read as it is (`ForeignChunk` accepts it), never written again.
    static let earlierSearch = """
        CREATE VIRTUAL TABLE IF NOT EXISTS message_search
        USING fts5(message, content='', detail='none', tokenize='trigram case_sensitive 1')
        """

    /// Pragmas of every connection that writes a chunk.
    static let writerPragmas = """
        PRAGMA journal_mode = WAL;
        PRAGMA synchronous = NORMAL;
        PRAGMA wal_autocheckpoint = 8192;
        """
}
