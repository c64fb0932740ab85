import DiagClient
import DiagModel
import Foundation
import Glibc

/// One client process of the benchmark: writes pre-encoded record lines to diagd as fast as the
/// socket takes them, with `{"sync": N}` every `syncEvery` records, and keeps at most one sync
/// unanswered. Returns when the last sync is answered: every record is then committed.
enum LoadClient {
    static func lines(_ records: [LogRecord]) -> [[UInt8]] {
        records.map { record -> [UInt8] in
            var writer = JSONWriter(reservingCapacity: 320)
            encode(record, &writer)
            return writer.bytes
        }
    }

    static func run(lines: [[UInt8]], socketPath: String, syncEvery: Int) throws -> Double {
        let connection = try BenchConnection(path: socketPath)
        let started = Date()
        var outstanding: Int64?
        var nextSync: Int64 = 1
        var chunk: [UInt8] = []
        chunk.reserveCapacity(syncEvery * 320)
        var index = 0
        while index < lines.count {
            let end = min(index + syncEvery, lines.count)
            chunk.removeAll(keepingCapacity: true)
            for line in lines[index..<end] { chunk.append(contentsOf: line) }
            chunk.append(contentsOf: Array("{\"sync\":\(nextSync)}\n".utf8))
            try connection.write(chunk)
            if let outstanding { try connection.waitForSync(outstanding) }
            outstanding = nextSync
            nextSync += 1
            index = end
        }
        if let outstanding { try connection.waitForSync(outstanding) }
        return Date().timeIntervalSince(started)
    }

    /// The protocol line: integer timestamp, no trusted fields.
    static func encode(_ record: LogRecord, _ writer: inout JSONWriter) {
        writer.append(raw: "{\"timestamp\":")
        writer.append(record.timestamp)
        writer.append(raw: ",\"messageType\":")
        writer.append(string: record.messageType.name)
        if let sender = record.sender { writer.append(raw: ",\"sender\":"); writer.append(string: sender) }
        if let subsystem = record.subsystem { writer.append(raw: ",\"subsystem\":"); writer.append(string: subsystem) }
        if let category = record.category { writer.append(raw: ",\"category\":"); writer.append(string: category) }
        if let thread = record.threadID { writer.append(raw: ",\"threadID\":"); writer.append(thread) }
        if let activity = record.activityIdentifier { writer.append(raw: ",\"activityIdentifier\":"); writer.append(activity) }
        writer.append(raw: ",\"eventMessage\":")
        writer.append(string: record.eventMessage)
        if let format = record.formatString { writer.append(raw: ",\"formatString\":"); writer.append(string: format) }
        if let metadata = record.metadata { writer.append(raw: ",\"metadata\":"); writer.append(.object(metadata)) }
        writer.append(raw: "}\n")
    }
}
