import DiagModel
@testable import DiagStore

/// Records for store tests: every field set, Unicode text, nested metadata.
enum StoreTestRecords {
    static let base: Int64 = 1_764_409_201_123_456_789

    /// The records whose message contains `needle`, both folded as the message search folds them:
    /// what a search must find.
    static func containing(_ records: [LogRecord], _ needle: String) -> [LogRecord] {
        let folded = MessageSearchIndex.fold(needle)
        return records.filter { MessageSearchIndex.fold($0.eventMessage).contains(folded) }
    }

    static func full(_ index: Int, timestamp: Int64? = nil) -> LogRecord {
        LogRecord(
            timestamp: timestamp ?? base + Int64(index) * 1_000,
            messageType: MessageType.allCases[index % MessageType.allCases.count],
            eventType: EventType.allCases[index % EventType.allCases.count],
            process: index % 3 == 0 ? "syncd" : "schedulerd",
            processID: Int64(100 + index % 5),
            processImagePath: "/usr/libexec/syncd",
            userID: 501,
            sender: "SyncCore",
            senderImagePath: "/usr/lib/libSyncCore.so",
            subsystem: "com.example.sync",
            category: index % 2 == 0 ? "store" : "network",
            threadID: Int64(index) * 7,
            activityIdentifier: Int64(index % 11),
            parentActivityIdentifier: 3,
            traceID: Int64.max - Int64(index),
            eventMessage: "Café ÉCOLE straße Ångström ﬁ 😀 \"quoted\" \\ tab\tline\nnext #\(index)",
            formatString: "Café %{public}s #%d",
            signpostID: 42,
            signpostName: "fetch",
            signpostType: "begin",
            signpostScope: "thread",
            metadata: [
                "storeIdentifier": "E1F2-ÅÄ",
                "count": .int(Int64(index)),
                "ratio": 0.25,
                "negative": -1.5e-7,
                "flag": true,
                "nothing": nil,
                "nested": ["list": [1, "two", 3.0, false, nil], "emoji": "😀\u{1}"],
            ],
            receiptTime: base + 5
        )
    }

    /// A record with only the required fields.
    static func minimal(_ index: Int, timestamp: Int64) -> LogRecord {
        LogRecord(timestamp: timestamp, eventMessage: "m\(index)")
    }
}
