import DiagModel
import Foundation
import Glibc
import TestSupport

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One NDJSON record line as a component would send it.
func recordLine(_ message: String, level: String = "Default", subsystem: String = "com.example.sync.core", timestamp: Int64? = nil) -> String {
    var writer = JSONWriter()
    writer.append(.object([
        "eventMessage": .string(message), "messageType": .string(level), "subsystem": .string(subsystem),
        "category": "engine", "sender": "SyncKit",
    ].merging(timestamp.map { ["timestampNanoseconds": .int($0)] } ?? [:]) { $1 }))
    return String(decoding: writer.bytes, as: UTF8.self) + "\n"
}

/// A `sqlite3` shell process writing rows into a WAL-mode database, one transaction each, as a
/// component's persistent store would while a bundle is collected.
final class SQLiteWriterProcess {
    let process = Process()

    init(database: String, firstRow: Int, rowCount: Int) throws {
        var script = "PRAGMA busy_timeout = 10000;\n"
        for row in firstRow..<(firstRow + rowCount) {
            script += "INSERT INTO items (value, payload) VALUES (\(row), hex(randomblob(200)));\n"
        }
        let scriptURL = URL(fileURLWithPath: database + ".writer-\(firstRow).sql")
        try script.write(to: scriptURL, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [database]
        process.standardInput = try FileHandle(forReadingFrom: scriptURL)
        process.standardOutput = FileHandle.nullDevice
        try process.spawn()
    }

    /// The exit status; -1 when the process was not reaped in time (`waitForExit` says why).
    func wait() -> Int32 {
        process.waitForExit(seconds: 600) ? process.terminationStatus : -1
    }
}

/// Runs `sqlite3 PATH SQL` and returns its output, trimmed.
func sqlite(_ path: String, _ sql: String) throws -> String {
    let result = try run("/usr/bin/sqlite3", [path, sql])
    guard result.status == 0 else { throw TestFailure("sqlite3 \(path) '\(sql)': \(result.stderr)") }
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
}
