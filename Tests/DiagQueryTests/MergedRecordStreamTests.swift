import DiagModel
import DiagQuery
import Testing

@Suite struct MergedRecordStreamTests {
    private func records(_ times: [Int64], _ label: String) -> [LogRecord] {
        times.map { LogRecord(timestamp: $0, eventMessage: "\(label)\($0)") }
    }

    private func drain(_ stream: inout MergedRecordStream) throws -> [String] {
        var messages: [String] = []
        while let record = try stream.next() { messages.append(record.eventMessage) }
        return messages
    }

    @Test func interleavesByTimeAndKeepsTiesInStreamOrder() throws {
        var merged = MergedRecordStream([
            ArrayRecordStream(records([1, 4, 4, 9], "a")),
            ArrayRecordStream(records([2, 4, 10], "b")),
            ArrayRecordStream([]),
            ArrayRecordStream(records([0], "c")),
        ])
        #expect(try drain(&merged) == ["c0", "a1", "b2", "a4", "a4", "b4", "a9", "b10"])
        #expect(try merged.next() == nil)
    }

    @Test func keepsEachStreamsOwnOrderWhenItIsNotSorted() throws {
        var merged = MergedRecordStream([ArrayRecordStream(records([5, 1, 7], "a")), ArrayRecordStream(records([3], "b"))])
        #expect(try drain(&merged) == ["b3", "a5", "a1", "a7"])
    }

    @Test func manyStreamsComeOutSorted() throws {
        var generator = SystemRandomNumberGenerator()
        let streams = (0..<50).map { index in
            ArrayRecordStream(records((0..<40).map { _ in Int64.random(in: 0..<1000, using: &generator) }.sorted(), "s\(index)-"))
        }
        var merged = MergedRecordStream(streams)
        var times: [Int64] = []
        while let record = try merged.next() { times.append(record.timestamp) }
        #expect(times.count == 2000)
        #expect(times == times.sorted())
    }

    @Test func errorsFromAStreamReachTheCaller() {
        struct Failing: RecordStream {
            struct Broken: Error {}
            mutating func next() throws -> LogRecord? { throw Broken() }
        }
        var merged = MergedRecordStream([ArrayRecordStream(records([1], "a")), Failing()])
        #expect(throws: Failing.Broken.self) { _ = try merged.next() }
    }
}
