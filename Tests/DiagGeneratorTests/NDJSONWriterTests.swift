import DiagGenerator
import DiagModel
import Foundation
import Testing
import TestSupport

@Suite struct NDJSONWriterTests {
    private func written(_ records: [LogRecord]) throws -> [UInt8] {
        let directory = try TemporaryDirectory()
        let path = directory.file("out.ndjson").path
        let writer = try NDJSONWriter(path: path)
        for record in records { try writer.write(record) }
        try writer.close()
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func writesExactlyWhatWriteJSONWrites() throws {
        var records = Array(RecordGenerator(GeneratorOptions(count: 20_000, seed: 11)))
        records.append(LogRecord(
            timestamp: -1_500_000_001, messageType: .fault, eventType: .signpostEvent, process: "p\"q", processID: -5,
            processImagePath: "/a\\b", userID: Int64.min, sender: "tab\there", senderImagePath: "\u{1}\u{1F}\u{7F}",
            subsystem: "é", category: "🎉", threadID: Int64.max, activityIdentifier: 0, parentActivityIdentifier: 1,
            traceID: 2, eventMessage: "line\nbreak \r\u{8}\u{C} \"quoted\" back\\slash 12345678\"12345678\\", formatString: "%s",
            signpostID: 3, signpostName: "batch", signpostType: "begin", metadata: ["z": [1, 2.5, nil, true], "a": ["k": "v\n"]],
            receiptTime: 9))
        records.append(LogRecord(timestamp: 0, eventMessage: ""))
        let expected = records.map { $0.jsonString() + "\n" }.joined()
        #expect(try written(records) == Array(expected.utf8))
    }

    @Test func whatItWritesReadsBack() throws {
        let records = Array(RecordGenerator(GeneratorOptions(count: 5000, seed: 5)))
        let bytes = try written(records)
        var decoded: [LogRecord] = []
        var lineStart = 0
        for index in bytes.indices where bytes[index] == 0x0A {
            decoded.append(try LogRecord(jsonBytes: Array(bytes[lineStart..<index])))
            lineStart = index + 1
        }
        #expect(decoded == records)
    }

    @Test func generatesIntoAFileAcrossBufferFlushes() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("many.ndjson").path
        let writer = try NDJSONWriter(path: path)
        let options = GeneratorOptions(count: 10_000, seed: 2)
        #expect(try RecordGenerator.write(options, to: writer) == 10_000)
        try writer.close()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let expected = RecordGenerator(options).map { $0.jsonString() + "\n" }.joined()
        #expect(text.utf8.count > 2 << 20)
        #expect(text == expected)
    }

    @Test func unwritablePathsAreErrors() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: NDJSONWriterError(name: directory.file("no/such/dir.ndjson").path, reason: "No such file or directory")) {
            _ = try NDJSONWriter(path: directory.file("no/such/dir.ndjson").path)
        }
        let full = try NDJSONWriter(path: "/dev/full")
        try full.write(LogRecord(timestamp: 1, eventMessage: "x"))
        #expect(throws: NDJSONWriterError(name: "/dev/full", reason: "No space left on device")) { try full.close() }
    }
}
