import DiagStore
import Foundation
import Testing
import TestSupport

/// The column readers the frame writer relies on (DiagStore's `Statement+Columns`): they ask
/// SQLite for as little as they can per column, so NULL must still read apart from the values
/// that look like it (empty text, 0), whatever the column's storage class.
@Suite struct StatementColumnReadingTests {
    /// The folder and the connection are returned so that they outlive the statement's reads.
    private func rows(_ sql: String) throws -> (TemporaryDirectory, Database, Statement) {
        let folder = try TemporaryDirectory()
        let database = try Database(path: folder.file("t.sqlite").path)
        try database.execute("""
            CREATE TABLE t (n INTEGER, s TEXT);
            INSERT INTO t VALUES (NULL, NULL), (0, ''), (7, 'abc'), (-1, ' '), ('x', 0), (9223372036854775807, X'00');
            """)
        return (folder, database, try database.prepare(sql))
    }

    @Test func textBytesTellNullFromEmptyText() throws {
        let (folder, database, statement) = try rows("SELECT s FROM t ORDER BY rowid")
        var read: [[UInt8]?] = []
        while try statement.step() {
            read.append(statement.withTextBytes(at: 0) { $0.map(Array.init) })
        }
        #expect(read == [nil, [], Array("abc".utf8), [0x20], Array("0".utf8), [0x00]])
        _ = (folder, database)
    }

    @Test func optionalIntegersTellNullFromZero() throws {
        let (folder, database, statement) = try rows("SELECT n, s FROM t ORDER BY rowid")
        var read: [Int64?] = []
        var texts: [Int64?] = []
        while try statement.step() {
            read.append(statement.optionalInt64(at: 0))
            texts.append(statement.optionalInt64(at: 1))
        }
        // Text that is not a number reads as 0, as `sqlite3_column_int64` reads it: not NULL.
        #expect(read == [nil, 0, 7, -1, 0, Int64.max])
        #expect(texts == [nil, 0, 0, 0, 0, 0])
        _ = (folder, database)
    }

    /// Reading a column as text first (SQLite then keeps a text copy of a number) changes
    /// neither its NULL-ness nor its integer value.
    @Test func readingTextFirstKeepsTheIntegerAndItsNullness() throws {
        let (folder, database, statement) = try rows("SELECT n FROM t ORDER BY rowid")
        var read: [Int64?] = []
        while try statement.step() {
            _ = statement.withTextBytes(at: 0) { $0?.count }
            read.append(statement.optionalInt64(at: 0))
        }
        #expect(read == [nil, 0, 7, -1, 0, Int64.max])
        _ = (folder, database)
    }
}
