import DiagModel
import Foundation
import Testing
import TestSupport
@testable import DiagStore

/// `StoredRow.appendJSON` writes from the columns what `LogRecord.writeJSON` writes of the
/// decoded record, byte for byte, and refuses what decoding refuses.
@Suite struct StoredRowJSONTests {
    private func rowsAsJSON(_ store: LogStore, offsetSeconds: Int = 0) throws -> (rows: [String], records: [String]) {
        let cursor = store.records()
        var rows: [String] = []
        var records: [String] = []
        // One small scratch for all rows: most rows make it grow, and later rows reuse it.
        var scratch = ByteWriter(capacity: 64)
        while let row = try cursor.nextRow() {
            var bytes = Array("previous line\n".utf8)
            try row.appendJSON(offsetSeconds: offsetSeconds, to: &bytes, scratch: &scratch)
            #expect(bytes.starts(with: "previous line\n".utf8), "appended after what was there")
            bytes.removeFirst("previous line\n".utf8.count)
            rows.append(String(decoding: bytes, as: UTF8.self))
            records.append(try row.record().jsonString(offsetSeconds: offsetSeconds))
        }
        return (rows, records)
    }

    @Test(arguments: [0, 3600, -34_200, 20_700])
    func rowsWriteTheRecordsJSON(offsetSeconds: Int) throws {
        let folder = try TemporaryDirectory()
        let store = try LogStore.open(at: folder.file("s.logarchive"), create: true)
        var records = (0..<40).map { StoreTestRecords.full($0) }
        records += (0..<10).map { StoreTestRecords.minimal($0, timestamp: StoreTestRecords.base + 100_000 + Int64($0)) }
        var extreme = StoreTestRecords.minimal(99, timestamp: -1_234_567_890_123)
        extreme.eventMessage = "\u{0}\u{1}\u{1F}\u{7F}\u{8}\u{C}\r\"\\/ é\u{301} 𝄞"
        extreme.processID = Int64.min
        extreme.threadID = -1
        extreme.userID = 0
        extreme.process = ""
        extreme.metadata = [:]
        records.append(extreme)
        // Longer than any scratch so far, escaped all along (six bytes for one), and Int64.max.
        var long = StoreTestRecords.full(100)
        long.eventMessage = String(repeating: "\u{1}\"ab\\", count: 3_000) + "é"
        long.traceID = .max
        records.append(long)
        try store.append(records)
        try store.rotate()
        try store.append(Array(records.prefix(5)))  // an unsealed chunk too
        let (rows, decoded) = try rowsAsJSON(store, offsetSeconds: offsetSeconds)
        #expect(rows.count == records.count + 5)
        #expect(rows == decoded)
        #expect(Set(rows) == Set(records.map { $0.jsonString(offsetSeconds: offsetSeconds) }))
    }

    @Test func escapesAtEveryOffsetOfTheEightByteStrides() throws {
        let folder = try TemporaryDirectory()
        let store = try LogStore.open(at: folder.file("s.logarchive"), create: true)
        var records: [LogRecord] = []
        for length in 0..<26 {
            for special in ["\"", "\\", "\u{1}", "\n", "\u{1F}", " ", "é", "\u{7F}", "!"] {
                for offset in stride(from: 0, to: max(length, 1), by: 3) {
                    var text = String(repeating: "abcdefgh", count: 4).prefix(length).map(String.init)
                    if offset < text.count { text[offset] = special } else { text.append(special) }
                    records.append(LogRecord(timestamp: StoreTestRecords.base + Int64(records.count), eventMessage: text.joined(), formatString: text.reversed().joined()))
                }
            }
        }
        try store.append(records)
        let (rows, decoded) = try rowsAsJSON(store)
        #expect(rows.count == records.count)
        #expect(rows == decoded)
    }

    @Test func textThatIsNotUTF8IsRepairedAsDecodingRepairsIt() throws {
        let folder = try TemporaryDirectory()
        let store = try LogStore.open(at: folder.file("s.logarchive"), create: true)
        try store.append([StoreTestRecords.full(1), StoreTestRecords.full(2)])
        try store.close()
        let chunk = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.file("s.logarchive/Persist").path).first { $0.hasSuffix(".sqlite") })
        let database = try Database(path: folder.file("s.logarchive/Persist/\(chunk)").path)
        // Invalid UTF-8 (a lone continuation byte, a truncated sequence) and a number in a text column.
        try database.execute("UPDATE records SET eventMessage = CAST(X'41802242C3' AS TEXT), process = 12, sender = CAST(X'FF' AS TEXT) WHERE id = 1")
        let reopened = try LogStore.open(at: folder.file("s.logarchive"), options: .readOnly)
        let (rows, decoded) = try rowsAsJSON(reopened)
        #expect(rows == decoded)
        #expect(rows.first?.contains(#""eventMessage":"A\#u{FFFD}\"B\#u{FFFD}""#) == true)
        #expect(rows.first?.contains(#""process":"12""#) == true)
    }

    @Test func aBadLevelOrMetadataIsRefusedAsDecodingRefusesIt() throws {
        for update in ["messageType = 5", "eventType = 3", "metadata = '{\"a\":'"] {
            let folder = try TemporaryDirectory()
            let store = try LogStore.open(at: folder.file("s.logarchive"), create: true)
            try store.append([StoreTestRecords.full(1)])
            try store.close()
            let chunk = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.file("s.logarchive/Persist").path).first { $0.hasSuffix(".sqlite") })
            try Database(path: folder.file("s.logarchive/Persist/\(chunk)").path).execute("UPDATE records SET \(update)")
            let cursor = try LogStore.open(at: folder.file("s.logarchive"), options: .readOnly).records()
            let row = try #require(try cursor.nextRow())
            var bytes: [UInt8] = []
            var scratch = ByteWriter(capacity: 64)
            let rowError = #expect(throws: StoreError.self) { try row.appendJSON(offsetSeconds: 0, to: &bytes, scratch: &scratch) }
            let recordError = #expect(throws: StoreError.self) { try row.record() }
            #expect(rowError?.kind == .badRecord)
            #expect(rowError?.description == recordError?.description, "\(update)")
        }
    }
}
