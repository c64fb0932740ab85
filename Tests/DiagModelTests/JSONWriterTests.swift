import DiagModel
import Testing

@Suite struct JSONWriterTests {
    @Test func escapesStrings() {
        var writer = JSONWriter()
        writer.append(string: "a\"b\\c\nd\u{1}é🎉")
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #""a\"b\\c\nd\u0001é🎉""#)
    }

    @Test func writesRecordsWithLogFieldNames() {
        let record = LogRecord(
            timestamp: 1_764_409_201_123_456_000, messageType: .error, process: "transport", processID: 42,
            subsystem: "com.example.sync", category: "upload", eventMessage: "failed", metadata: ["b": 1, "a": "x"])
        #expect(record.jsonString() == #"{"timestamp":"2025-11-29 09:40:01.123456+0000","timestampNanoseconds":1764409201123456000,"messageType":"Error","eventType":"logEvent","process":"transport","processID":42,"subsystem":"com.example.sync","category":"upload","eventMessage":"failed","metadata":{"a":"x","b":1}}"#)
    }
}
