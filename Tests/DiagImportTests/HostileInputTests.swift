import DiagImport
import DiagModel
import Foundation
import Testing
import TestSupport

/// Bad input yields issues naming file and line; the good records around it still come through.
@Suite struct HostileInputTests {
    private let good1 = #"{"timestamp":1,"eventMessage":"first"}"#
    private let good2 = #"{"timestamp":2,"eventMessage":"second"}"#

    @Test func binaryGarbageBetweenRecords() throws {
        var bytes = Array((good1 + "\n").utf8)
        var state: UInt64 = 42
        for _ in 0..<5 {
            var line: [UInt8] = []
            for _ in 0..<200 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let byte = UInt8(truncatingIfNeeded: state >> 56)
                line.append(byte == 0x0A ? 0 : byte)
            }
            bytes += line + [0x0A]
        }
        bytes += Array((good2 + "\n").utf8)
        let imported = try importBytes(bytes, name: "garbage.ndjson", format: .ndjson)
        #expect(imported.records.map(\.eventMessage) == ["first", "second"])
        #expect(imported.issues.map(\.line) == [2, 3, 4, 5, 6])
        #expect(imported.issues.allSatisfy { $0.file == "garbage.ndjson" && $0.column != nil })
    }

    @Test func invalidUTF8InsideAJSONString() throws {
        var bytes = Array((good1 + "\n").utf8)
        bytes += Array(#"{"timestamp":3,"eventMessage":"caf"#.utf8) + [0xE9] + Array("\"}\n".utf8)
        bytes += Array(good2.utf8)
        let imported = try importBytes(bytes, name: "bad.ndjson")
        #expect(imported.records.map(\.eventMessage) == ["first", "second"])
        #expect(imported.issues.map(\.description) == [#"bad.ndjson:2:35: invalid UTF-8: lead byte 0xE9 followed by '"'"#])
    }

    @Test func aTwoMebibyteLineIsReadWhole() throws {
        let message = String(repeating: "Straße ", count: 300_000)
        let text = good1 + "\n" + #"{"timestamp":5,"eventMessage":"\#(message)"}"# + "\n" + good2 + "\n"
        let directory = try TemporaryDirectory()
        let imported = try importFile(Array(text.utf8), in: directory, name: "long.ndjson")
        #expect(imported.issues.isEmpty)
        #expect(imported.records.map(\.eventMessage.utf8.count) == [5, message.utf8.count, 6])
    }

    @Test func aLineOverTheLimitIsSkippedWithAnIssue() throws {
        let long = #"{"timestamp":5,"eventMessage":""# + String(repeating: "x", count: 2 << 20) + #""}"#
        let text = good1 + "\n" + long + "\n" + good2 + "\n" + long
        let directory = try TemporaryDirectory()
        let imported = try importFile(Array(text.utf8), in: directory, name: "limit.ndjson", maxLineLength: 1 << 20)
        #expect(imported.records.map(\.eventMessage) == ["first", "second"])
        #expect(imported.issues.map(\.description) == [
            "\(imported.path):2: a line of 2097185 bytes is longer than the limit of 1048576 bytes; skipped",
            "\(imported.path):4: a line of 2097185 bytes is longer than the limit of 1048576 bytes; skipped",
        ])
    }

    @Test func truncatedLastLine() throws {
        let imported = try importText(good1 + "\n" + #"{"timestamp":2,"eventMess"#, name: "cut.ndjson")
        #expect(imported.records.count == 1)
        #expect(imported.issues.map(\.description) == [#"cut.ndjson:2:16: unterminated string (missing closing '"')"#])
    }

    @Test func wrongTypesNameTheField() throws {
        let text = good1 + "\n" + #"{"timestamp":2,"eventMessage":"x","processID":"forty-two"}"# + "\n" + #"{"timestamp":2,"eventMessage":"x","metadata":"no"}"#
        let imported = try importText(text, name: "types.ndjson")
        #expect(imported.records.count == 1)
        #expect(imported.issues.map(\.description) == [
            #"types.ndjson:2: field "processID": refused value "forty-two"; accepted: an integer from -2^63 to 2^63-1"#,
            #"types.ndjson:3: field "metadata": refused value "no"; accepted: a JSON object"#,
        ])
    }

    @Test func deeplyNestedJSON() throws {
        let deep = #"{"timestamp":2,"eventMessage":"x","metadata":{"a":"# + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}}"
        let imported = try importText(good1 + "\n" + deep + "\n" + good2, name: "deep.ndjson")
        #expect(imported.records.map(\.eventMessage) == ["first", "second"])
        #expect(imported.issues.count == 1)
        #expect(imported.issues.first?.reason == "arrays and objects nested deeper than 64 levels")
    }

    @Test func emptyAndBlankInputsYieldNothing() throws {
        for text in ["", "\n\n", "   \r\n\t\n"] {
            let imported = try importText(text)
            #expect(imported.format == nil && imported.records.isEmpty && imported.issues.isEmpty)
        }
        let directory = try TemporaryDirectory()
        let empty = try importFile([], in: directory)
        #expect(empty.format == nil && empty.records.isEmpty && empty.issues.isEmpty)
    }

    @Test func crlfLineEndingsAndNULBytes() throws {
        let imported = try importText("Nov 29 09:40:01 host app[1]: one\r\nNov 29 09:40:02 host app[1]: t\u{0}wo\r\n")
        #expect(imported.issues.isEmpty)
        #expect(imported.records.map(\.eventMessage) == ["one", "t\u{0}wo"])
    }

    @Test func unreadableFilesAreErrors() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: ImportError.unreadable(path: directory.file("missing.log").path, reason: "No such file or directory")) {
            _ = try LogFileReader(path: directory.file("missing.log").path)
        }
        #expect(throws: ImportError.unreadable(path: directory.path, reason: "it is a directory")) {
            _ = try LogFileReader(path: directory.path)
        }
    }

    @Test func manyRecordsAcrossReadBlocks() throws {
        let directory = try TemporaryDirectory()
        var ndjson = ""
        var array = "[\n"
        for index in 0..<20_000 {
            let record = LogRecord(timestamp: Int64(index), process: "transport", eventMessage: "record \(index) " + String(repeating: "é", count: index % 97))
            ndjson += record.jsonString() + "\n"
            array += (index > 0 ? ",\n" : "") + record.jsonString()
        }
        array += "\n]\n"
        let lines = try importFile(Array(ndjson.utf8), in: directory, name: "many.ndjson")
        #expect(lines.issues.isEmpty && lines.records.count == 20_000)
        #expect(lines.records.last?.eventMessage.hasPrefix("record 19999 ") == true)
        #expect(lines.records.enumerated().allSatisfy { $0.element.timestamp == Int64($0.offset) })
        let elements = try importFile(Array(array.utf8), in: directory, name: "many.json")
        #expect(elements.format == .appleJSON)
        #expect(elements.issues.isEmpty && elements.records == lines.records)
    }
}
