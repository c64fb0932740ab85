import DiagModel
import Testing

/// `JSONWriter`'s strings: what it escapes (controls, DEL and C1 controls as `\u00XX`, the
/// two-character escapes, `"` and `\`) and what it leaves (`/`, everything else), byte for byte
/// against an escaper written plainly here, and read back by `JSONReader` as the same text.
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

    /// The escaping, one scalar at a time.
    static func expected(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0x00..<0x20, 0x7F, 0x80...0x9F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    @Test func everyScalarBelowU0100AndSomeBeyondAreWrittenAsExpected() throws {
        var texts = (0..<0x100).map { String(Unicode.Scalar(UInt8($0))) }
        texts += ["", "plain text / with a slash", "tab\there \"quoted\" back\\slash", "é 日本 🚀 \u{2028}",
                  "\u{85}next line\u{9F}", "a\u{7F}b", String(repeating: "long run of printable text ", count: 20) + "\u{1}"]
        for text in texts {
            var writer = JSONWriter()
            writer.append(string: text)
            let written = String(decoding: writer.bytes, as: UTF8.self)
            #expect(written == Self.expected(text), "\(text.debugDescription)")
            var bytesWriter = JSONWriter()
            var copy = text
            copy.withUTF8 { bytesWriter.append(stringUTF8: $0) }
            #expect(bytesWriter.bytes == writer.bytes)
            let read = try JSONReader.parseObject(Array(("{\"k\":" + written + "}").utf8))
            #expect(read["k"] == .string(text))
        }
    }
}
