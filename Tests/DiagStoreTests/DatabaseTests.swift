import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

@Suite struct DatabaseTests {
    @Test func anIOErrorNamesTheCallThatFailed() {
        // "disk I/O error" alone does not say which: the extended code does.
        #expect(SQLiteError(code: 522).description == "SQLite error 10 (extended 522): disk I/O error")
        #expect(SQLiteError(code: 10).description == "SQLite error 10: disk I/O error")
    }

    @Test func constraintErrorReadsLikeGRDBAndHidesBoundValues() throws {
        let folder = try TemporaryDirectory()
        let database = try Database(path: folder.file("t.sqlite").path)
        try database.execute("CREATE TABLE t (a TEXT NOT NULL, b TEXT)")
        let insert = try database.prepare("INSERT INTO t (a, b) VALUES (?, ?)")
        try insert.bind([nil, "secret-value"])
        let error = #expect(throws: SQLiteError.self) { try insert.run() }
        #expect(error?.code == 19)
        #expect(error?.description == "SQLite error 19: NOT NULL constraint failed: t.a - while executing `INSERT INTO t (a, b) VALUES (?, ?)`")
        #expect(error?.description.contains("secret-value") == false)
    }

    @Test func aLongStatementIsShownByItsBeginningAndItsSize() throws {
        // A large predicate's SQL runs to hundreds of KB; the message names the statement by its
        // first 300 characters and says how long it was. (900 terms: SQLite's expression depth
        // limit of 1000 would otherwise be the error.)
        let folder = try TemporaryDirectory()
        let database = try Database(path: folder.file("t.sqlite").path)
        let sql = "SELECT nosuchcolumn FROM sqlite_schema WHERE " + Array(repeating: "name = 'x'", count: 900).joined(separator: " OR ")
        let error = #expect(throws: SQLiteError.self) { try database.prepare(sql) }
        let text = error?.description ?? ""
        #expect(text.hasPrefix("SQLite error 1: no such column: nosuchcolumn - while executing `SELECT nosuchcolumn FROM sqlite_schema WHERE name = 'x' OR"))
        #expect(text.hasSuffix("… (\(sql.utf8.count) bytes in all)`"))
        #expect(text.utf8.count < 500)
    }

    @Test func aStatementOnSeveralLinesIsShownOnOne() throws {
        let folder = try TemporaryDirectory()
        let database = try Database(path: folder.file("t.sqlite").path)
        let error = #expect(throws: SQLiteError.self) { try database.prepare("SELECT name\n  FROM nosuchtable\r\n  WHERE 1") }
        #expect(error?.description == "SQLite error 1: no such table: nosuchtable - while executing `SELECT name FROM nosuchtable WHERE 1`")
    }

    @Test func syntaxErrorNamesTheStatement() throws {
        let folder = try TemporaryDirectory()
        let database = try Database(path: folder.file("t.sqlite").path)
        let error = #expect(throws: SQLiteError.self) { try database.prepare("SELEC 1") }
        #expect(error?.code == 1)
        #expect(error?.description.hasSuffix("- while executing `SELEC 1`") == true)
    }

    @Test func prepareRefusesASecondStatementInsteadOfIgnoringIt() throws {
        let folder = try TemporaryDirectory()
        let database = try Database(path: folder.file("t.sqlite").path)
        try database.execute("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1)")
        let error = #expect(throws: SQLiteError.self) { try database.prepare("SELECT a FROM t; DROP TABLE t") }
        #expect(error?.description.contains("more than one statement") == true)
        #expect(try database.scalarInt("SELECT count(*) FROM t;  ") == 1)
    }

    @Test func failedOpenNamesThePath() throws {
        let folder = try TemporaryDirectory()
        let missing = folder.file("no/such/dir/t.sqlite").path
        let error = #expect(throws: SQLiteError.self) { try Database(path: missing) }
        #expect(error?.description.contains(missing) == true)
        let notCreated = folder.file("absent.sqlite").path
        #expect(throws: SQLiteError.self) { try Database(path: notCreated, options: .init(create: false)) }
        #expect(!FileManager.default.fileExists(atPath: notCreated))
    }

    @Test func readOnlyConnectionRefusesWrites() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("t.sqlite").path
        try Database(path: path).execute("CREATE TABLE t (a INTEGER)")
        let reader = try Database(path: path, options: .init(readOnly: true))
        let error = #expect(throws: SQLiteError.self) { try reader.execute("INSERT INTO t VALUES (1)") }
        #expect(error?.code == 8)
    }

    @Test func bindsAndReadsEveryKindOfValue() throws {
        let folder = try TemporaryDirectory()
        let database = try Database(path: folder.file("t.sqlite").path)
        try database.execute("CREATE TABLE t (i INTEGER, d REAL, s TEXT, b BLOB, n TEXT)")
        let insert = try database.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?)")
        try insert.bind([Int64.min, 2.5, "é😀\u{0}x", SQLBlob([0, 1, 255]), nil])
        try insert.run()
        try insert.bind([SQLValue.int(7), SQLValue.double(-1), SQLValue.text(""), SQLBlob([]), SQLValue.null])
        try insert.run()
        let select = try database.prepare("SELECT i, d, s, b, n FROM t ORDER BY rowid")
        #expect(try select.step())
        #expect(select.int64(at: 0) == Int64.min)
        #expect(select.double(at: 1) == 2.5)
        #expect(select.string(at: 2) == "é😀\u{0}x")
        #expect(select.blob(at: 3) == [0, 1, 255])
        #expect(select.optionalString(at: 4) == nil)
        #expect(select.columnName(at: 2) == "s")
        #expect(try select.step())
        #expect(select.value(at: 0) == .int(7))
        #expect(select.value(at: 2) == .text(""))
        #expect(select.value(at: 4) == .null)
        #expect(try !select.step())
    }

    @Test func wrongNumberOfBindingsIsRefused() throws {
        let folder = try TemporaryDirectory()
        let database = try Database(path: folder.file("t.sqlite").path)
        let statement = try database.prepare("SELECT ?, ?")
        let error = #expect(throws: SQLiteError.self) { try statement.bind([1]) }
        #expect(error?.description.contains("1 values given for 2 placeholders") == true)
    }

    @Test func transactionRollsBackWhenTheBodyThrows() throws {
        struct Abort: Error {}
        let folder = try TemporaryDirectory()
        let database = try Database(path: folder.file("t.sqlite").path)
        try database.execute("CREATE TABLE t (a INTEGER)")
        #expect(throws: Abort.self) {
            try database.inTransaction {
                try database.execute("INSERT INTO t VALUES (1)")
                throw Abort()
            }
        }
        #expect(try database.scalarInt("SELECT count(*) FROM t") == 0)
        try database.inTransaction(.immediate) { try database.execute("INSERT INTO t VALUES (2)") }
        #expect(try database.scalarInt("SELECT sum(a) FROM t") == 2)
        #expect(database.isAutocommit)
    }

    @Test func backupAndVacuumIntoMakeConsistentCopiesOfAWALDatabase() throws {
        let folder = try TemporaryDirectory()
        let database = try Database(path: folder.file("live.sqlite").path)
        #expect(try database.enableWAL() == "wal")
        try database.execute("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1), (2), (3)")
        let backupPath = folder.file("backup.sqlite").path
        try database.backup(toPath: backupPath)
        let vacuumPath = folder.file("vacuum.sqlite").path
        try database.vacuumInto(path: vacuumPath)
        for path in [backupPath, vacuumPath] {
            let copy = try Database(path: path, options: .init(readOnly: true))
            #expect(try copy.scalarInt("SELECT sum(a) FROM t") == 6)
            #expect(try copy.scalarText("PRAGMA integrity_check") == "ok")
        }
    }

    @Test func garbageFileIsReportedAsCorruption() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("junk.sqlite", String(repeating: "not a database at all ", count: 100))
        let error = #expect(throws: SQLiteError.self) {
            let database = try Database(path: path, options: .init(readOnly: true))
            _ = try database.userVersion()
        }
        #expect(error?.isCorruption == true)
    }
}
