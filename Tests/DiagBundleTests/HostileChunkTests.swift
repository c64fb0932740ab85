import DiagStore
import Foundation
import Testing
import TestSupport

/// A chunk in a bundle is SQL written by a stranger: none of it may run (issue 13, item 1).
struct HostileChunkTests {
    static let oneVersion1Row = """
        INSERT INTO log VALUES (1764409201.5, 'error', 'transport', 42, 'Sender', 'com.example', 'net', 7, 3, 'upload failed');
        PRAGMA user_version = 1;
        """

    @Test func aTriggerInAVersion1ChunkNeverRuns() throws {
        let folder = try TemporaryDirectory("diag-hostile-chunk")
        // Before: the chunk was migrated in place in the cache, which deleted rows of `log` and
        // so fired the author's trigger (a looping one grew the cache without end).
        let bundle = try makeBundle(in: folder, formatVersion: 1, chunkSQL: """
            \(version1LogTable);
            CREATE TABLE evidence (n INTEGER);
            CREATE TRIGGER planted AFTER DELETE ON log BEGIN INSERT INTO evidence VALUES (1); END;
            \(Self.oneVersion1Row)
            """)
        for command in [["show", bundle.path], ["verify", bundle.path]] {
            let result = try diag(command, cacheIn: folder)
            #expect(result.status == 65, "\(command): \(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains("0000000000000001.chunk.sqlite"), "\(result.stderr)")
            #expect(result.stderr.contains("'evidence'") || result.stderr.contains("'planted'"), "\(result.stderr)")
        }
        #expect(cachedBundles(folder).isEmpty)
    }

    @Test func aRecordsViewIsNeverEvaluated() throws {
        let folder = try TemporaryDirectory("diag-hostile-chunk")
        // A view over a recursive CTE made `diag show` run forever; this one ends, so that the
        // test shows what was read before: rows that no table holds.
        let bundle = try makeBundle(in: folder, chunkSQL: """
            CREATE VIEW records AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3)
              SELECT i AS id, 1764409201000000000 + i AS timestamp, NULL AS receiptTime, 0 AS messageType,
                     1024 AS eventType, 'viewer' AS process, 1 AS processID, NULL AS processImagePath, 0 AS userID,
                     NULL AS sender, NULL AS senderImagePath, NULL AS subsystem, NULL AS category, 1 AS threadID,
                     0 AS activityIdentifier, 0 AS parentActivityIdentifier, 0 AS traceID,
                     'computed by a view' AS eventMessage, NULL AS formatString, NULL AS signpostID,
                     NULL AS signpostName, NULL AS signpostType, NULL AS metadata FROM n;
            PRAGMA user_version = 2;
            """)
        let shown = try diag(["show", bundle.path], cacheIn: folder)
        #expect(shown.status == 65, "\(shown.stdout) \(shown.stderr)")
        #expect(!shown.stdout.contains("computed by a view"))
        #expect(shown.stderr.contains("view 'records'"), "\(shown.stderr)")
        let verified = try diag(["verify", bundle.path], cacheIn: folder)
        #expect(verified.status == 65)
        #expect(verified.stderr.contains("view 'records'"), "\(verified.stderr)")
    }

    @Test func anIndexOnAnExpressionIsRefused() throws {
        let folder = try TemporaryDirectory("diag-hostile-chunk")
        let bundle = try makeBundle(in: folder, chunkSQL: """
            \(currentRecordsTable);
            CREATE INDEX records_timestamp ON records(timestamp * 2);
            PRAGMA user_version = 2;
            """)
        let shown = try diag(["show", bundle.path], cacheIn: folder)
        #expect(shown.status == 65, "\(shown.stderr)")
        #expect(shown.stderr.contains("index 'records_timestamp', not defined as this store defines it"), "\(shown.stderr)")
    }

    /// A store reads the chunks under `Persist/Burst/` too (diagd's bursts, until their seal):
    /// in a bundle, where every chunk is checked under `Persist/`, such a folder is refused, so
    /// that a chunk there is never read unchecked.
    @Test func aBurstFolderInABundleIsRefused() throws {
        let folder = try TemporaryDirectory("diag-hostile-chunk")
        let chunk = folder.file("hidden.sqlite")
        do {
            let database = try Database(path: chunk.path)
            try database.execute("\(currentRecordsTable); CREATE TRIGGER t AFTER INSERT ON records BEGIN SELECT 1; END; PRAGMA user_version = 3;")
        }
        let bundle = try makeBundle(in: folder, chunkSQL: "\(currentRecordsTable); PRAGMA user_version = 3;", extra: [
            ("system_logs.logarchive/Persist/Burst/0000000000000002.chunk.sqlite", Array(try Data(contentsOf: chunk))),
        ])
        for command in ["verify", "show"] {
            let output = try diag([command, bundle.path], cacheIn: folder)
            #expect(output.status == 65, "\(command): \(output.stdout)\(output.stderr)")
            #expect((output.stdout + output.stderr).contains("system_logs.logarchive/Persist/Burst"), "\(command): \(output.stdout)\(output.stderr)")
        }
        #expect(cachedBundles(folder).isEmpty)
    }

    @Test func aValueOverTheRecordBoundIsRefusedNotLoaded() throws {
        let folder = try TemporaryDirectory("diag-hostile-chunk")
        let bundle = try makeBundle(in: folder, chunkSQL: "\(currentRecordsTable); PRAGMA user_version = 3;") { database in
            try database.execute(
                "INSERT INTO records (timestamp, messageType, eventType, eventMessage) VALUES (1764409201000000000, 0, 1024, ?)",
                [String(repeating: "a", count: Int(Database.valueLengthLimit) + 1)])
        }
        let shown = try diag(["show", bundle.path], cacheIn: folder)
        #expect(shown.status == 65, "\(shown.stderr)")
        #expect(shown.stderr.contains("longer than the store's bound"), "\(shown.stderr)")
    }

    /// What `verify` passes, `show` opens: an Info.json nested too deep for the store's reader
    /// is refused by both, with the file named (verify exited 0 for it before).
    @Test func anInfoJSONTheStoreCannotReadFailsVerifyAsItFailsShow() throws {
        let folder = try TemporaryDirectory("diag-hostile-chunk")
        let deep = Array(repeating: UInt8(ascii: "["), count: 100_000) + Array(repeating: UInt8(ascii: "]"), count: 100_000)
        let bundle = try makeBundle(in: folder, chunkSQL: "\(currentRecordsTable); PRAGMA user_version = 3;", info: deep)
        let verified = try diag(["verify", bundle.path], cacheIn: folder)
        #expect(verified.status == 65, "\(verified.stdout)\(verified.stderr)")
        #expect((verified.stdout + verified.stderr).contains("system_logs.logarchive/Info.json"), "\(verified.stdout)\(verified.stderr)")
        let shown = try diag(["show", bundle.path], cacheIn: folder)
        #expect(shown.status == 65, "\(shown.stderr)")
        #expect(cachedBundles(folder).isEmpty)
    }

    @Test func aVersion1ChunkIsCopiedIntoAFreshChunkAndReads() throws {
        let folder = try TemporaryDirectory("diag-hostile-chunk")
        let bundle = try makeBundle(in: folder, formatVersion: 1, chunkSQL: "\(version1LogTable);\n\(Self.oneVersion1Row)")
        let shown = try diag(["show", bundle.path, "--style", "ndjson"], cacheIn: folder)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("upload failed"))
        #expect(shown.stdout.contains("\"process\":\"transport\""), "\(shown.stdout)")
        #expect(try diag(["verify", bundle.path], cacheIn: folder).status == 0)
        let cached = try #require(cachedBundles(folder).first)
        let chunk = folder.file("cache/diag/bundles/\(cached)/diagnose_hostile/system_logs.logarchive/Persist/0000000000000001.chunk.sqlite")
        let database = try Database(path: chunk.path, options: .init(readOnly: true))
        #expect(try database.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name = 'log'") == 0)
        #expect(try database.scalarInt("SELECT count(*) FROM records") == 1)
        #expect(try database.userVersion() == 3)
    }

    /// Every bundle collected before signposts has version-2 chunks: they are copied forward into
    /// the cache (never altered in place) and read like any other.
    @Test func aVersion2ChunkIsCopiedIntoAFreshChunkAndReads() throws {
        let folder = try TemporaryDirectory("diag-version2-chunk")
        let row = """
            INSERT INTO records (timestamp, messageType, eventType, process, eventMessage)
            VALUES (1780000000000000000, 16, 1024, 'transport', 'upload failed for batch 7');
            PRAGMA user_version = 2;
            """
        let bundle = try makeBundle(in: folder, chunkSQL: "\(version2RecordsTable);\n\(row)")
        let shown = try diag(["show", bundle.path, "--style", "ndjson"], cacheIn: folder)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("upload failed for batch 7"), "\(shown.stdout)")
        #expect(try diag(["verify", bundle.path], cacheIn: folder).status == 0)
        let cached = try #require(cachedBundles(folder).first)
        let chunk = folder.file("cache/diag/bundles/\(cached)/diagnose_hostile/system_logs.logarchive/Persist/0000000000000001.chunk.sqlite")
        let database = try Database(path: chunk.path, options: .init(readOnly: true))
        #expect(try database.userVersion() == 3)
        #expect(try database.scalarInt("SELECT count(*) FROM records WHERE signpostScope IS NULL") == 1)
    }

    /// The writer's block sets (`message_blocks`), their record masks (`message_record_masks`)
    /// and the seal's positions table (`message_position_blocks`) come in bundles too: a table
    /// of any of these names defined otherwise is refused like any object the store never writes.
    @Test(arguments: [
        ("message_blocks", "CREATE TABLE message_blocks (block INTEGER PRIMARY KEY, oldest INTEGER NOT NULL, newest INTEGER NOT NULL, bits BLOB NOT NULL, note TEXT)"),
        ("message_record_masks", "CREATE TABLE message_record_masks (block INTEGER PRIMARY KEY, masks BLOB)"),
        ("message_position_blocks", "CREATE TABLE message_position_blocks (position INTEGER PRIMARY KEY, first INTEGER, count INTEGER NOT NULL, blocks BLOB NOT NULL)"),
    ])
    func blockTablesDefinedOtherwiseAreRefused(table: String, definition: String) throws {
        let folder = try TemporaryDirectory("diag-hostile-chunk")
        let bundle = try makeBundle(in: folder, chunkSQL: """
            \(currentRecordsTable);
            \(definition);
            PRAGMA user_version = 3;
            """)
        for command in [["show", bundle.path], ["verify", bundle.path]] {
            let result = try diag(command, cacheIn: folder)
            #expect(result.status == 65, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("table '\(table)', not defined as this store defines it"), "\(result.stderr)")
        }
    }

    /// Hand-made sets: one of the wrong size keeps its block (a set that may hold anything), block
    /// numbers at both ends of Int64 stay 64 ids each, and the record is found, nothing else.
    @Test func handMadeBlockSetsAreReadSafely() throws {
        try expectTheNeedleRecordAlone(besideRecords: """
            CREATE TABLE message_blocks (block INTEGER PRIMARY KEY, oldest INTEGER NOT NULL, newest INTEGER NOT NULL,
                                         bits BLOB NOT NULL);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 15)
            INSERT INTO message_blocks SELECT i, -9223372036854775808, 9223372036854775807, zeroblob(512) FROM n;
            INSERT INTO message_blocks VALUES (0, -9223372036854775808, 9223372036854775807, X'00'),
                                              (9223372036854775807, 5, -5, zeroblob(512)),
                                              (-9223372036854775808, -9223372036854775808, 9223372036854775807, X'00');
            """)
    }

    /// Hand-made record masks: one of the wrong size keeps all 64 ids of its block, masks of
    /// blocks at both ends of Int64 and of a block without a set change nothing, sets at both
    /// ends of Int64 (a chunk spanning more blocks than Int64 counts) give no id, and the record
    /// is found, nothing else.
    @Test func handMadeRecordMasksAreReadSafely() throws {
        try expectTheNeedleRecordAlone(besideRecords: """
            CREATE TABLE message_blocks (block INTEGER PRIMARY KEY, oldest INTEGER NOT NULL, newest INTEGER NOT NULL,
                                         bits BLOB NOT NULL);
            CREATE TABLE message_record_masks (block INTEGER PRIMARY KEY, masks BLOB NOT NULL);
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 15)
            INSERT INTO message_blocks SELECT i, -9223372036854775808, 9223372036854775807, X'00' FROM n;
            INSERT INTO message_blocks VALUES (9223372036854775807, 0, 0, X'00'), (-9223372036854775808, 0, 0, X'00');
            INSERT INTO message_record_masks VALUES (0, X'00'), (1, zeroblob(512)), (2, 'text'), (99, zeroblob(512)),
                                                    (-9223372036854775808, X'01'), (9223372036854775807, zeroblob(512));
            """)
    }

    /// Hand-made positions tables that do not hang together (rows of other sizes, ranges or
    /// types, a range past Int64, positions without a row) leave the search to the sets, and the
    /// record is found, nothing else. One that covers block 0 alone leaves the other blocks to
    /// their sets.
    @Test(arguments: [
        "SELECT i, 0, 16, X'00' FROM n",
        "SELECT i, 9223372036854775807, 16, X'FFFF' FROM n",
        "SELECT i, 0, 16, 'textual' FROM n",
        "SELECT i, 'zero', 16, X'FFFF' FROM n",
        "SELECT i, 0, 1099511627776, X'FFFF' FROM n",
        "SELECT i, 0, -16, X'' FROM n",
        "SELECT i, i % 2, 16, X'FFFF' FROM n",
        "SELECT i, 0, 16, X'FFFF' FROM n WHERE i % 3 = 0",
        "SELECT i, 0, 1, X'01' FROM n",
    ])
    func handMadePositionTablesAreReadSafely(rows: String) throws {
        try expectTheNeedleRecordAlone(besideRecords: """
            CREATE TABLE message_blocks (block INTEGER PRIMARY KEY, oldest INTEGER NOT NULL, newest INTEGER NOT NULL,
                                         bits BLOB NOT NULL);
            CREATE TABLE message_record_masks (block INTEGER PRIMARY KEY, masks BLOB NOT NULL);
            CREATE TABLE message_position_blocks (position INTEGER PRIMARY KEY, first INTEGER NOT NULL,
                                                  count INTEGER NOT NULL, blocks BLOB NOT NULL);
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 15)
            INSERT INTO message_blocks SELECT i, -9223372036854775808, 9223372036854775807, X'00' FROM n;
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 15)
            INSERT INTO message_record_masks SELECT i, X'00' FROM n;
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 4095)
            INSERT INTO message_position_blocks \(rows);
            """)
    }

    /// Bundles collected before the search table lost its docsize table (`columnsize=0`) hold
    /// the earlier definition with all its tables: read as they are, through their index.
    @Test func aSearchIndexOfTheEarlierDefinitionIsRead() throws {
        try expectTheNeedleRecordAlone(besideRecords: """
            CREATE VIRTUAL TABLE message_search
            USING fts5(message, content='', detail='none', tokenize='trigram case_sensitive 1');
            INSERT INTO message_search (rowid, message) SELECT id, lower(eventMessage) FROM records;
            """)
    }

    /// A search index is all the tables of one definition: today's with the earlier one's docsize
    /// table beside it, or the earlier one without it, is refused before anything reads it.
    @Test(arguments: [
        """
        CREATE VIRTUAL TABLE message_search
        USING fts5(message, content='', detail='none', columnsize=0, tokenize='trigram case_sensitive 1');
        CREATE TABLE 'message_search_docsize'(id INTEGER PRIMARY KEY, sz BLOB);
        """,
        """
        CREATE VIRTUAL TABLE message_search
        USING fts5(message, content='', detail='none', tokenize='trigram case_sensitive 1');
        DROP TABLE message_search_docsize;
        """,
    ])
    func aSearchIndexOfMixedDefinitionsIsRefused(searchSQL: String) throws {
        let folder = try TemporaryDirectory("diag-hostile-chunk")
        let bundle = try makeBundle(in: folder, chunkSQL: """
            \(currentRecordsTable);
            \(searchSQL)
            PRAGMA user_version = 3;
            """)
        for command in [["show", bundle.path], ["verify", bundle.path]] {
            let result = try diag(command, cacheIn: folder)
            #expect(result.status == 65, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("its search index is incomplete or mixed"), "\(result.stderr)")
        }
    }

    /// A bundle whose chunk holds records 1 to 1,000, record 5 "the needle-5 record", and what
    /// `sql` makes beside them: a search for it shows that record alone and exits 0, and
    /// `verify` passes.
    private func expectTheNeedleRecordAlone(besideRecords sql: String) throws {
        let folder = try TemporaryDirectory("diag-hostile-chunk")
        let bundle = try makeBundle(in: folder, chunkSQL: """
            \(currentRecordsTable);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
            INSERT INTO records (id, timestamp, messageType, eventType, process, eventMessage)
            SELECT i, 1780000000000000000 + i, 0, 1024, 'p', CASE WHEN i = 5 THEN 'the needle-5 record' ELSE 'other ' || i END FROM n;
            \(sql)
            PRAGMA user_version = 3;
            """)
        let shown = try diag(["show", bundle.path, "--style", "ndjson", "--predicate", "message CONTAINS[cd] \"NEEDLE-5\""], cacheIn: folder)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.split(separator: "\n").count == 1, "\(shown.stdout)")
        #expect(shown.stdout.contains("the needle-5 record"))
        #expect(try diag(["verify", bundle.path], cacheIn: folder).status == 0)
    }
}
