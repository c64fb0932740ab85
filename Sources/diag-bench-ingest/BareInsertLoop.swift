import DiagModel
import DiagStore
import Foundation
import Glibc

/// The reference: the same records inserted with SQLite alone (prepared INSERT into the chunk
/// schema, WAL, synchronous=NORMAL, one transaction per batch), no socket, no JSON.
enum BareInsertLoop {
    static let createTable = """
        CREATE TABLE records (
          id INTEGER PRIMARY KEY, timestamp INTEGER NOT NULL, receiptTime INTEGER,
          messageType INTEGER NOT NULL, eventType INTEGER NOT NULL,
          process TEXT, processID INTEGER, processImagePath TEXT, userID INTEGER,
          sender TEXT, senderImagePath TEXT, subsystem TEXT, category TEXT,
          threadID INTEGER, activityIdentifier INTEGER, parentActivityIdentifier INTEGER, traceID INTEGER,
          eventMessage TEXT NOT NULL, formatString TEXT,
          signpostID INTEGER, signpostName TEXT, signpostType TEXT, metadata TEXT)
        """
    static let insert = """
        INSERT INTO records (timestamp, receiptTime, messageType, eventType, process, processID, processImagePath,
          userID, sender, senderImagePath, subsystem, category, threadID, activityIdentifier, parentActivityIdentifier,
          traceID, eventMessage, formatString, signpostID, signpostName, signpostType, metadata)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Inserts `records` into a new database at `path`; returns the seconds taken and the CPU
    /// seconds the process spent on it.
    static func run(records: [LogRecord], path: String, batch: Int) throws -> (seconds: Double, cpu: Double) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let database = try Database(path: path)
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
        try database.execute(createTable)
        let statement = try database.prepare(insert)
        let process = "bench", image = "/usr/bin/bench"
        let started = Date()
        let cpuStarted = ProcessCPU.seconds()
        var index = 0
        while index < records.count {
            let end = min(index + batch, records.count)
            try database.inTransaction(.immediate) {
                for record in records[index..<end] {
                    try statement.bind(record.timestamp, at: 1)
                    try statement.bind(record.timestamp, at: 2)
                    try statement.bind(Int64(record.messageType.rawValue), at: 3)
                    try statement.bind(Int64(record.eventType.rawValue), at: 4)
                    try statement.bind(process, at: 5)
                    try statement.bind(Int64(4242), at: 6)
                    try statement.bind(image, at: 7)
                    try statement.bind(Int64(1000), at: 8)
                    try statement.bind(record.sender, at: 9)
                    try statement.bind(record.senderImagePath, at: 10)
                    try statement.bind(record.subsystem, at: 11)
                    try statement.bind(record.category, at: 12)
                    try statement.bind(record.threadID, at: 13)
                    try statement.bind(record.activityIdentifier, at: 14)
                    try statement.bind(record.parentActivityIdentifier, at: 15)
                    try statement.bind(record.traceID, at: 16)
                    try statement.bind(record.eventMessage, at: 17)
                    try statement.bind(record.formatString, at: 18)
                    try statement.bind(record.signpostID, at: 19)
                    try statement.bind(record.signpostName, at: 20)
                    try statement.bind(record.signpostType, at: 21)
                    if let metadata = record.metadata {
                        var writer = JSONWriter(reservingCapacity: 64)
                        writer.append(.object(metadata))
                        try statement.bind(String(decoding: writer.bytes, as: UTF8.self), at: 22)
                    } else {
                        try statement.bindNull(at: 22)
                    }
                    _ = try statement.step()
                    statement.reset()
                }
            }
            index = end
        }
        return (Date().timeIntervalSince(started), ProcessCPU.seconds() - cpuStarted)
    }
}

enum ProcessCPU {
    /// User and system CPU seconds of this process so far.
    static func seconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func value(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return value(usage.ru_utime) + value(usage.ru_stime)
    }
}
