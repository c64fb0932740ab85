import DiagModel
import DiagStore
import TestSupport

/// Deterministic records with nils, Unicode, NULs and metadata, and an in-memory table holding
/// them under the chunk schema of docs/ARCHITECTURE.md.
enum PlannerTestRecords {
    typealias Generator = SeededPicker

    static let processes: [String?] = ["apsd", "dasd", "cloudd", "CoreDataCloudKitDemo", nil, "Café", "Cafe\u{301}", "APSD", "a\0b", "zeta", "\u{10FFFF}x"]
    static let senders: [String?] = ["CoreData", "CloudKit", nil, "UIKit", "straße", "apsd"]
    static let subsystems: [String?] = ["com.apple.apsd", nil, "com.example.sync", ""]
    static let words = ["push", "error 42", "Café", "CAFÉ", "Cafe\u{301}", "ß", "iCloud.com.example.CloudKitCoreDataDemo",
                        "CoreDataCloudKitDemo", "token", "line\nbreak", "naïve", "42", "x*y?z", "Øresund", "ca\u{345}fe", "\u{212A}elvin"]

    static func make(count: Int) -> [Int64: LogRecord] {
        var random = Generator(state: 2022)
        var records: [Int64: LogRecord] = [:]
        for id in 1...Int64(count) {
            let message = (0..<(1 + random.int(4))).map { _ in random.pick(words) }.joined(separator: random.pick([" ", "", ": "]))
            var metadata: [String: JSONValue]?
            if random.int(3) > 0 {
                metadata = [:]
                if random.int(2) == 0 { metadata?["storeIdentifier"] = random.pick(["ABC", "abc", "Ábc"]) }
                if random.int(2) == 0 { metadata?["count"] = .int(Int64(random.int(6))) }
                if random.int(3) == 0 { metadata?["ratio"] = .double(Double(random.int(4)) / 4) }
                if random.int(3) == 0 { metadata?["flag"] = .bool(random.int(2) == 0) }
                if random.int(4) == 0 { metadata?["tags"] = ["a", "b"] }
                if random.int(4) == 0 { metadata?["nothing"] = .null }
                if random.int(4) == 0 { metadata?["obj"] = ["k": 1] }
            }
            records[id] = LogRecord(
                timestamp: wwdcStart + Int64(random.int(600)) * 1_000_000_000 + Int64(random.int(3)),
                messageType: random.pick(MessageType.allCases),
                eventType: random.pick([.logEvent, .logEvent, .activityCreateEvent, .signpostEvent]),
                process: random.pick(processes),
                processID: random.maybe(Int64(random.int(300))),
                processImagePath: random.maybe("/usr/libexec/apsd"),
                userID: random.maybe(501),
                sender: random.pick(senders),
                subsystem: random.pick(subsystems),
                category: random.maybe(random.pick(["connection", "Connection", "sync"])),
                threadID: random.maybe(Int64(random.int(400))),
                activityIdentifier: random.maybe(77, nilOneIn: 2),
                parentActivityIdentifier: random.maybe(5, nilOneIn: 2),
                traceID: random.maybe(Int64(random.int(10)), nilOneIn: 2),
                eventMessage: message,
                formatString: random.maybe("%s"),
                signpostType: random.int(3) == 0 ? random.pick(["begin", "end", "event", "intervalBegin"]) : nil,
                metadata: metadata
            )
            // From the id, not the generator, so that the other fields stay what they were.
            records[id]!.signpostScope = ["process", "thread", "System", nil, "galaxy", "THREAD"][Int(id % 6)]
            records[id]!.signpostID = id % 4 == 0 ? 7 : (id % 4 == 1 ? nil : id)
            records[id]!.signpostName = ["export", "import", nil, "Export"][Int(id % 4)]
        }
        return records
    }

    static func database(with records: [Int64: LogRecord]) throws -> Database {
        let database = try Database(path: ":memory:")
        try database.execute("""
            CREATE TABLE records (
              id INTEGER PRIMARY KEY, timestamp INTEGER NOT NULL, receiptTime INTEGER,
              messageType INTEGER NOT NULL, eventType INTEGER NOT NULL,
              process TEXT, processID INTEGER, processImagePath TEXT, userID INTEGER,
              sender TEXT, senderImagePath TEXT, subsystem TEXT, category TEXT,
              threadID INTEGER, activityIdentifier INTEGER, parentActivityIdentifier INTEGER, traceID INTEGER,
              eventMessage TEXT NOT NULL, formatString TEXT,
              signpostID INTEGER, signpostName TEXT, signpostType TEXT, metadata TEXT, signpostScope TEXT
            );
            CREATE INDEX records_process ON records(process, timestamp);
            CREATE INDEX records_level ON records(messageType, timestamp)
            """)
        let insert = try database.prepare("""
            INSERT INTO records (id, timestamp, messageType, eventType, process, processID, processImagePath, userID,
              sender, subsystem, category, threadID, activityIdentifier, parentActivityIdentifier, traceID,
              eventMessage, formatString, signpostType, metadata, signpostScope, signpostID, signpostName)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (id, r) in records.sorted(by: { $0.key < $1.key }) {
            var metadataText: String?
            if let metadata = r.metadata {
                var writer = JSONWriter()
                writer.append(.object(metadata))
                metadataText = String(decoding: writer.bytes, as: UTF8.self)
            }
            let values: [SQLValueConvertible?] = [
                id, r.timestamp, Int64(r.messageType.rawValue), Int64(r.eventType.rawValue), r.process, r.processID,
                r.processImagePath, r.userID, r.sender, r.subsystem, r.category, r.threadID, r.activityIdentifier,
                r.parentActivityIdentifier, r.traceID, r.eventMessage, r.formatString, r.signpostType, metadataText,
                r.signpostScope, r.signpostID, r.signpostName,
            ]
            try insert.bind(values)
            try insert.run()
            insert.reset()
        }
        return database
    }
}
