import DiagModel
import DiagQuery
import Testing

@Suite struct RecordSelectionTests {
    let records: [LogRecord] = [
        LogRecord(timestamp: 10, messageType: .default, process: "transport", processID: 42, sender: "Transport", eventMessage: "a"),
        LogRecord(timestamp: 20, messageType: .info, process: "transport", processID: 42, eventMessage: "b"),
        LogRecord(timestamp: 30, messageType: .debug, process: "scheduler", processID: 7, sender: "libdispatch", eventMessage: "c"),
        LogRecord(timestamp: 40, messageType: .error, process: "scheduler", processID: 7, eventMessage: "d"),
        LogRecord(timestamp: 50, messageType: .fault, eventMessage: "e"),
    ]

    private func selected(_ selection: RecordSelection) -> String {
        records.filter(selection.matches).map(\.eventMessage).joined()
    }

    @Test func levelsFollowLogShow() {
        #expect(selected(RecordSelection()) == "ade")
        #expect(selected(RecordSelection(includeInfo: true)) == "abde")
        #expect(selected(RecordSelection(includeInfo: true, includeDebug: true)) == "abcde")
        #expect(selected(RecordSelection(includeDebug: true)) == "acde")
    }

    @Test func windowIsHalfOpen() {
        #expect(selected(RecordSelection(start: 20, end: 50, includeInfo: true, includeDebug: true)) == "bcd")
    }

    @Test func processesByNameOrID() {
        let byName = RecordSelection(includeInfo: true, includeDebug: true, processes: [.init("transport")])
        #expect(selected(byName) == "ab")
        let byID = RecordSelection(includeInfo: true, includeDebug: true, processes: [.init("7"), .init("nobody")])
        #expect(selected(byID) == "cd")
        #expect(RecordSelection.ProcessSelector("-3") == .name("-3"))
    }

    @Test func sendersMustMatchExactly() {
        #expect(selected(RecordSelection(includeDebug: true, senders: ["libdispatch", "Transport"])) == "ac")
        #expect(selected(RecordSelection(senders: ["transport"])) == "")
    }

    @Test func sqlConditionBindsEveryValue() throws {
        #expect(RecordSelection(includeInfo: true, includeDebug: true).sqlCondition == nil)
        let condition = try #require(RecordSelection(processes: [.id(7), .name("x'); DROP")], senders: ["s"]).sqlCondition)
        #expect(condition.sql == "messageType IN (?, ?, ?) AND (processID = ? OR process = ?) AND sender IN (?)")
        #expect(condition.bindings == [.int(0), .int(16), .int(17), .int(7), .text("x'); DROP"), .text("s")])
    }
}
