import DiagModel
import DiagProtocol
import Testing

/// The requests a client sends, written by `ClientMessage.line` and read back by
/// `ClientMessage.parse` as diagd reads them; hostile lines are refused with the reason.
@Suite struct ClientMessageTests {
    func parse(_ text: String) throws -> ClientMessage? {
        try Array(text.utf8).withUnsafeBytes { try ClientMessage.parse($0, receiptTime: 42) }
    }

    func roundTrip(_ message: ClientMessage) throws -> ClientMessage? {
        let line = message.line
        #expect(line.last == UInt8(ascii: "\n"))
        return try parse(String(decoding: line.dropLast(), as: UTF8.self))
    }

    @Test func everyRequestReadsBackAsWritten() throws {
        #expect(String(decoding: ClientMessage.ring.line, as: UTF8.self) == "{\"ring\":true}\n")
        guard case .ring? = try roundTrip(.ring) else { Issue.record("ring"); return }
        guard case .stats? = try roundTrip(.stats) else { Issue.record("stats"); return }
        guard case .sync(let id)? = try roundTrip(.sync(.int(7))), id == .int(7) else { Issue.record("sync"); return }
        let request = StreamRequest(level: .debug, processes: ["syncd", "42"], predicate: "subsystem == \"a\"")
        guard case .subscribe(let read)? = try roundTrip(.subscribe(request)), read == request else { Issue.record("subscribe"); return }
        let setting = LevelSetting(subsystem: "com.example.sync", category: "push", mode: LevelMode(enabled: .info, persisted: .default))
        guard case .configure(let readSetting?)? = try roundTrip(.configure(setting)), readSetting == setting else { Issue.record("config"); return }
        guard case .configure(nil)? = try roundTrip(.configure(nil)) else { Issue.record("config list"); return }
        let reset = LevelReset(subsystem: "com.example.sync", category: nil)
        guard case .resetLevels(let readReset)? = try roundTrip(.resetLevels(reset)), readReset == reset else { Issue.record("reset"); return }
    }

    @Test func aRecordLineIsARecordStampedWithItsReceipt() throws {
        guard case .record(let record)? = try parse("{\"eventMessage\": \"hello\", \"messageType\": \"Info\"}") else {
            Issue.record("not a record"); return
        }
        #expect(record.eventMessage == "hello")
        #expect(record.timestamp == 42 && record.receiptTime == 42)
        #expect(try parse("   ") == nil)
    }

    @Test(arguments: [
        ("{\"ring\": true", "JSON"),
        ("[1, 2]", "object"),
        ("{\"hello\": 1}", "requests are {\"sync\": ID}"),
        ("{\"ring\": true, \"stats\": true}", "takes no other key, found: stats"),
        ("{\"sync\": [1]}", "'sync' takes an integer or a string ID to echo, found an array"),
        ("{\"subscribe\": 3}", "'subscribe' takes an object"),
        ("{\"subscribe\": {\"level\": \"loud\"}}", "unknown level 'loud' in 'subscribe.level'; accepted: debug, info or default"),
        ("{\"subscribe\": {\"processes\": [true]}}", "'subscribe.processes' holds names or IDs, found a boolean"),
        ("{\"subscribe\": {\"predicate\": 5}}", "'subscribe.predicate' has the wrong type: a number"),
        ("{\"subscribe\": {\"colour\": \"red\"}}", "unknown key 'colour' in 'subscribe'"),
        ("{\"config\": {\"subsystem\": 5, \"mode\": \"level:info\"}}", "'config.subsystem' must be a string, found a number"),
        ("{\"config\": {\"category\": \"c\", \"mode\": \"level:info\"}}", "'config.category' needs 'config.subsystem'"),
        ("{\"config\": {\"subsystem\": \"s\"}}", "'config' needs 'mode'"),
        ("{\"config\": {\"mode\": \"level:loud\"}}", "unknown level 'loud'"),
        ("{\"config\": {\"mode\": \"level:info\", \"when\": 1}}", "unknown key 'when' in 'config'; accepted: subsystem, category, mode"),
        ("{\"config\": {\"reset\": true, \"mode\": \"level:info\"}}", "unknown key 'mode' in a 'config' reset"),
        ("{\"config\": {\"reset\": \"yes\"}}", "'config.reset' must be true, found a string"),
        ("{\"config\": [1]}", "'config' takes an object"),
    ])
    func hostileRequestsAreRefusedWithTheReason(line: String, reason: String) {
        do {
            let message = try parse(line)
            Issue.record("accepted: \(String(describing: message))")
        } catch {
            #expect((error as? ProtocolError)?.description.contains(reason) == true, "\(line): \(error)")
        }
    }

    @Test func aDeeplyNestedRequestIsRefusedNotRecursedInto() {
        let deep = "{\"subscribe\": " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        #expect(throws: ProtocolError.self) { try parse(deep) }
    }
}
