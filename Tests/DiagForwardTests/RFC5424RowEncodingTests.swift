import DiagForward
import DiagModel
import DiagStore
import Foundation
import Testing
import TestSupport

/// The forward's frames written straight from a chunk's rows are the very bytes the encoder
/// writes for the records those rows hold: every field, escaping, Unicode, the BOM rule, header
/// fields cut or replaced, missing and empty values.
@Suite struct RFC5424RowEncodingTests {
    static let records: [LogRecord] = {
        let long = String(repeating: "p", count: 60)
        var records = [
            LogRecord(timestamp: 1_764_409_201_123_456_789, messageType: .error, process: "syncd", processID: 4242, subsystem: "com.example.sync", category: "upload", eventMessage: "upload failed"),
            LogRecord(timestamp: 0, messageType: .fault, eventType: .signpostEvent, process: "café", processID: -1, processImagePath: "/usr/bin/x \"q\"", userID: 501,
                      sender: "Sync]Core\\", senderImagePath: "", subsystem: "", category: "a category that is longer than thirty-two bytes",
                      threadID: Int64.max, activityIdentifier: Int64.min, parentActivityIdentifier: 0, traceID: 7,
                      eventMessage: "café ✓ \"q\"\nline 2", formatString: "%s ]", signpostID: 9, signpostName: "n\"", signpostType: "begin",
                      metadata: ["k": .string("v\"]"), "n": .int(-3), "nested": .object(["a": .array([.bool(true), .null])])]),
            LogRecord(timestamp: -5_000_000_123, messageType: .debug, eventType: .activityCreateEvent, process: long, category: "", eventMessage: ""),
            LogRecord(timestamp: 1_700_000_000_000_000_000, messageType: .info, process: "tab\tname", eventMessage: "日本語 🚀"),
            LogRecord(timestamp: 1, messageType: .default, eventMessage: "plain ascii [x] \"y\" \\z"),
            // Longer than the encoder's first buffer: it grows.
            LogRecord(timestamp: 3, process: "big", sender: String(repeating: "\"]", count: 3000), eventMessage: String(repeating: "long é ", count: 2000)),
        ]
        // Runs within one second, a second's first and last nanosecond, and going back in time:
        // the encoder keeps the second's text and changes the microseconds only.
        for nanoseconds: Int64 in [1_764_409_201_000_000_000, 1_764_409_201_000_000_999, 1_764_409_201_000_001_000, 1_764_409_201_999_999_999,
                                   1_764_409_202_000_000_000, 1_764_409_201_500_000_000, 1_774_742_400_123_456_000, 999, 0, -1, -1_000_000_000] {
            records.append(LogRecord(timestamp: nanoseconds, process: "t", eventMessage: "at \(nanoseconds)"))
        }
        // Metadata repeated, alternating, and more distinct values than the encoder keeps.
        for index in 0..<40 {
            let metadata: [String: JSONValue] = index % 3 == 0 ? ["container": .string("iCloud.x")] : ["n": .int(Int64(index % 11)), "b": .string("]\"\\")]
            records.append(LogRecord(timestamp: Int64(index), process: "m", eventMessage: "m \(index)", metadata: metadata))
        }
        for type in [MessageType.default, .info, .debug, .error, .fault] {
            records.append(LogRecord(timestamp: 2, messageType: type, eventType: .stateEvent, process: "p", eventMessage: "level \(type)"))
        }
        return records
    }()

    @Test(arguments: [
        RFC5424Encoder(facility: 1, hostname: "build-7", utcOffset: 3600), RFC5424Encoder(facility: 23, hostname: "h", utcOffset: nil),
        RFC5424Encoder(hostname: "z", utcOffset: 0), RFC5424Encoder(hostname: "m", utcOffset: -34_200),
    ])
    func framesFromRowsAreTheRecordsFrames(encoder: RFC5424Encoder) throws {
        let directory = try TemporaryDirectory()
        let store = try LogStore.open(at: directory.url, create: true)
        try store.append(Self.records)
        let follower = StoreFollower(storeDirectory: directory.url)
        var expected: [UInt8] = []
        for record in Self.records { encoder.appendFrame(for: record, to: &expected) }
        // Small batches: the row encoder's buffers are reused across rows and batches. Every
        // other batch is held to the end, the others let go (their buffers go back to the pool
        // and take later batches): a held batch's bytes must not change meanwhile.
        var position = ForwardPosition.beginning
        var frames: [UInt8] = []
        var held: [(FrameBatch, [UInt8])] = []
        var count = 0
        while true {
            let batch = try follower.read(after: position, limit: 3, chunks: store.info.chunks, frames: encoder)
            if batch.end == position { break }
            #expect(batch.records.isEmpty)
            let bytes = try #require(batch.frames).bytes
            frames += bytes
            if count % 2 == 0, let kept = batch.frames { held.append((kept, bytes)) }
            count += batch.count
            position = batch.end
        }
        #expect(held.count > 5)
        for (batch, bytes) in held { #expect(batch.bytes == bytes) }
        #expect(count == Self.records.count)
        #expect(String(decoding: frames, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(frames == expected)
        let asRecords = try StoreFollower(storeDirectory: directory.url).read(after: .beginning, limit: 100, chunks: store.info.chunks)
        #expect(asRecords.records == Self.records)
        #expect(asRecords.count == Self.records.count)
        #expect(asRecords.frames == nil)
    }
}

/// Rows a damaged chunk may hold: codes no record has and metadata that is not JSON are refused
/// with the same reason in both forms; text that is not UTF-8 is repaired as decoding does.
@Suite struct RFC5424DamagedRowTests {
    @Test func damagedRowsAreRefusedOrRepairedAsDecodingDoes() throws {
        let directory = try TemporaryDirectory()
        let store = try LogStore.open(at: directory.url, create: true)
        try store.append((0..<6).map { LogRecord(timestamp: Int64($0), process: "p", eventMessage: "row \($0)") })
        let chunk = try #require(store.info.chunks.last)
        let database = try Database(path: directory.url.appendingPathComponent("Persist").appendingPathComponent(chunk.file).path)
        try database.execute("UPDATE records SET messageType = 99 WHERE eventMessage = 'row 1'")
        try database.execute("UPDATE records SET eventType = 7 WHERE eventMessage = 'row 2'")
        try database.execute("UPDATE records SET metadata = '{not json' WHERE eventMessage = 'row 3'")
        try database.execute("UPDATE records SET eventMessage = CAST(x'ff41c3' AS TEXT), process = CAST(x'70fe' AS TEXT), sender = CAST(x'80' AS TEXT) WHERE eventMessage = 'row 4'")
        let encoder = RFC5424Encoder(hostname: "h", utcOffset: 0)
        let asFrames = try StoreFollower(storeDirectory: directory.url).read(after: .beginning, limit: 100, chunks: store.info.chunks, frames: encoder)
        let asRecords = try StoreFollower(storeDirectory: directory.url).read(after: .beginning, limit: 100, chunks: store.info.chunks)
        #expect(asFrames.undecodable.count == 3)
        #expect(asFrames.undecodable == asRecords.undecodable)
        #expect(asFrames.undecodable[0].contains("column messageType holds 99"))
        #expect(asFrames.count == 3)
        #expect(asRecords.records.count == 3)
        #expect(asFrames.end == asRecords.end)
        var expected: [UInt8] = []
        for record in asRecords.records { encoder.appendFrame(for: record, to: &expected) }
        #expect(asFrames.frames?.bytes == expected)
        #expect(asRecords.records[1].eventMessage == "\u{FFFD}A\u{FFFD}")
    }
}
