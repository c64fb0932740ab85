import DiagImport
import DiagModel
import Foundation
import TestSupport

let utc = TimeZone(identifier: "UTC")!

/// Reads text as a file of the given name would be read, in UTC and the year 2026.
func importText(_ text: String, name: String = "test.log", format: ImportFormat? = nil, maxLineLength: Int = 16 << 20) throws -> (format: ImportFormat?, records: [LogRecord], issues: [ImportIssue]) {
    try importBytes(Array(text.utf8), name: name, format: format, maxLineLength: maxLineLength)
}

func importBytes(_ bytes: [UInt8], name: String = "test.log", format: ImportFormat? = nil, maxLineLength: Int = 16 << 20) throws -> (format: ImportFormat?, records: [LogRecord], issues: [ImportIssue]) {
    let reader = try LogFileReader(bytes: bytes, name: name, options: ImportOptions(year: 2026, format: format, timeZone: utc, maxLineLength: maxLineLength))
    let (records, issues) = try reader.readAll()
    return (reader.format, records, issues)
}

/// Writes the text to a real file and reads it through `LogFileReader(path:)`.
func importFile(_ contents: [UInt8], in directory: TemporaryDirectory, name: String = "test.log", maxLineLength: Int = 16 << 20) throws -> (format: ImportFormat?, records: [LogRecord], issues: [ImportIssue], path: String) {
    let path = directory.file(name).path
    try Data(contents).write(to: URL(fileURLWithPath: path))
    let reader = try LogFileReader(path: path, options: ImportOptions(year: 2026, timeZone: utc, maxLineLength: maxLineLength))
    let (records, issues) = try reader.readAll()
    return (reader.format, records, issues, path)
}

func nanoseconds(_ text: String) -> Int64 {
    Timestamp.parse(text)!
}
