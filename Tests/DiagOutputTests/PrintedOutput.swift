import DiagModel
import DiagOutput
import Foundation
import TestSupport

/// Prints records through a real `OutputSink` on a file and returns what landed in the file.
func printed(_ records: [LogRecord], style: OutputStyle, zone: DisplayZone = .utc, colored: Bool = false) throws -> String {
    let folder = try TemporaryDirectory("diag-output")
    let path = folder.file("out.txt").path
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
    do {
        let printer = RecordPrinter(style: style, zone: zone, colored: colored, sink: OutputSink(descriptor: descriptor, capacity: 100))
        printer.begin()
        for record in records { printer.write(record) }
        printer.finish()
    }
    close(descriptor)
    return try String(contentsOfFile: path, encoding: .utf8)
}

/// 2026-11-29 09:40:01.123456789 UTC.
let sampleTime: Int64 = 1_795_945_201_123_456_789

let sampleRecords: [LogRecord] = [
    LogRecord(
        timestamp: sampleTime, messageType: .default, process: "transport", processID: 4242, sender: "Transport",
        subsystem: "com.example.sync", category: "upload", threadID: 0x1a2b, eventMessage: "upload started"),
    LogRecord(
        timestamp: sampleTime + 1_000_000, messageType: .error, process: "scheduler", processID: 7, threadID: 0xff,
        activityIdentifier: 0x2f, eventMessage: "job \"refresh\" failed\twith code 3",
        metadata: ["attempt": 2, "job": "refresh"]),
    LogRecord(
        timestamp: sampleTime + 2_000_000_000, messageType: .info, eventType: .activityCreateEvent, process: "sync-core",
        processID: 100, sender: "SyncCore", subsystem: "com.example.sync", threadID: 1, activityIdentifier: 0x30,
        eventMessage: "sync pass"),
]
