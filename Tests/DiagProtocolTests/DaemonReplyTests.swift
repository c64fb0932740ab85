import DiagModel
import DiagProtocol
import Glibc
import Testing

/// The lines diagd sends, written by `DaemonReply.line` and read back by `DaemonReply.parse`
/// as clients read them; hostile replies (bad JSON, wrong types, oversize lines) are refused.
@Suite struct DaemonReplyTests {
    func parse(_ text: String) throws(ProtocolError) -> DaemonReply {
        try DaemonReply.parse(Array(text.utf8))
    }

    @Test func everyReplyReadsBackAsWritten() throws {
        var record = LogRecord(timestamp: 1_700_000_000_000_000_000, messageType: .debug, eventMessage: "ring record")
        record.process = "syncd"
        let replies: [DaemonReply] = [
            .record(record),
            .synced(.int(3)), .synced(.string("flush-1")),
            .error("line is too long", line: 4), .error("diagd is stopping", line: 2, sync: .int(9)), .error("busy"),
            .end(12), .dropped(5),
            .subscribed(StreamRequest(level: .info, processes: ["7"], predicate: "process == \"a\"")),
            .configured([LevelSetting(subsystem: nil, category: nil, mode: .systemDefault),
                         LevelSetting(subsystem: "s", category: "c", mode: LevelMode(enabled: .default))]),
            .stats(["received": .int(10), "openConnections": .int(1)]),
        ]
        for reply in replies {
            let line = reply.line
            #expect(line.last == UInt8(ascii: "\n") && line.dropLast().firstIndex(of: UInt8(ascii: "\n")) == nil)
            #expect(try DaemonReply.parse(Array(line.dropLast())) == reply)
        }
        #expect(String(decoding: DaemonReply.end(2).line, as: UTF8.self) == "{\"end\":2}\n")
    }

    @Test(arguments: [
        ("{\"end\": 3", "not a JSON object"),
        ("\"end\"", "not a JSON object"),
        ("{}", "none of the keys"),
        ("{\"finished\": 1}", "found: finished"),
        ("{\"end\": \"three\"}", "'end' must be a count, found a string"),
        ("{\"end\": -1}", "'end' must be a count"),
        ("{\"dropped\": 1.5}", "'dropped' must be a count"),
        ("{\"error\": 5}", "'error' must be a string, found a number"),
        ("{\"error\": \"x\", \"line\": \"two\"}", "'line' must be a line number, found a string"),
        ("{\"configured\": {}}", "'configured' must be an array of settings, found an object"),
        ("{\"configured\": [{\"mode\": \"level:loud\"}]}", "unknown level 'loud'"),
        ("{\"configured\": [{\"mode\": 1}]}", "'config.mode' must be a string"),
        ("{\"subscribed\": []}", "'subscribe' takes an object"),
        ("{\"stats\": 1}", "'stats' must be an object of counters, found a number"),
        ("{\"eventMessage\": 5}", "a record that does not read"),
    ])
    func hostileRepliesAreRefusedWithTheReason(line: String, reason: String) {
        do {
            let reply = try parse(line)
            Issue.record("accepted: \(reply)")
        } catch {
            #expect(error.description.contains(reason), "\(line): \(error.description)")
        }
    }

    @Test func anOversizeReplyIsRefusedBeforeItIsRead() {
        let huge = "{\"error\": \"" + String(repeating: "x", count: LineBounds.reply) + "\"}"
        #expect(throws: ProtocolError.self) { try parse(huge) }
    }
}
