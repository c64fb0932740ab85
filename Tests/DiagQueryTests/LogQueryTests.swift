import DiagGenerator
import DiagImport
import DiagModel
import DiagStore
import Foundation
import Testing
import TestSupport
@testable import DiagQuery

@Suite struct LogQueryTests {
    static let records = Array(RecordGenerator(GeneratorOptions(count: 3000, seed: 11)))

    private func ndjson(_ records: some Sequence<LogRecord>) -> String {
        records.map { $0.jsonString() + "\n" }.joined()
    }

    private func drain(_ results: QueryResults) throws -> [LogRecord] {
        var out: [LogRecord] = []
        while let record = try results.next() { out.append(record) }
        return out
    }

    @Test func storeAndFileGiveWhatSwiftAloneSelects() throws {
        let folder = try TemporaryDirectory("query-sources")
        let storeURL = folder.file("store")
        let store = try LogStore.open(at: storeURL, create: true)
        try store.append(Self.records)
        try store.rotate()
        try store.close()
        let file = try folder.write("records.ndjson", ndjson(Self.records))
        let selection = RecordSelection(
            start: Self.records[100].timestamp, end: Self.records[2500].timestamp, includeInfo: true,
            processes: [.init("transport"), .init("scheduler")])
        // A condition whose SQL part and residual together mean "the message has an 'e' and the level is not Error".
        let condition = QueryCondition(
            sqlWhere: "messageType <> ?", bindings: [.int(16)],
            residual: { $0.eventMessage.contains("e") },
            matches: { $0.messageType != .error && $0.eventMessage.contains("e") })
        let expected = Self.records.filter { selection.matches($0) && condition.matches($0) }
        #expect(!expected.isEmpty)
        let query = LogQuery(selection: selection, condition: condition)
        let fromStore = try drain(try query.open([.store(storeURL)], onIssue: { _ in Issue.record("no issues expected") }))
        let fromFile = try drain(try query.open([.file(file)], onIssue: { _ in Issue.record("no issues expected") }))
        #expect(fromStore == expected)
        #expect(fromFile == expected)
    }

    @Test func filesAndStoresMergeByTime() throws {
        let folder = try TemporaryDirectory("query-merge")
        let storeURL = folder.file("store")
        let store = try LogStore.open(at: storeURL, create: true)
        let evens = Self.records.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let odds = Self.records.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        try store.append(evens)
        try store.close()
        let file = try folder.write("odds.ndjson", ndjson(odds))
        let all = LogQuery(selection: RecordSelection(includeInfo: true, includeDebug: true))
        let merged = try drain(try all.open([.file(file), .store(storeURL)], onIssue: { _ in }))
        #expect(merged == Self.records)
    }

    @Test func issuesAreCountedAndReadingGoesOn() throws {
        let folder = try TemporaryDirectory("query-issues")
        let good = ndjson(Self.records.prefix(3))
        let file = try folder.write("mixed.ndjson", good + "{oops\n" + good)
        var reported: [ImportIssue] = []
        let results = try LogQuery(selection: RecordSelection(includeInfo: true, includeDebug: true))
            .open([.file(file)], onIssue: { reported.append($0) })
        #expect(try drain(results).count == 6)
        #expect(results.refusedCount == 1)
        #expect(reported.map(\.line) == [4])
    }

    @Test func unreadableSourcesSayWhy() throws {
        let folder = try TemporaryDirectory("query-unreadable")
        let unknown = try folder.write("unknown.txt", "%%% not a log %%%\n")
        #expect {
            _ = try LogQuery().open([.file(unknown)], onIssue: { _ in })
        } throws: { error in
            (error as? QueryError)?.isBadInput == true && "\(error)".contains(unknown)
        }
        #expect {
            _ = try LogQuery().open([.file(folder.file("absent").path)], onIssue: { _ in })
        } throws: { error in
            (error as? QueryError)?.isBadInput == false
        }
        #expect(throws: QueryError.self) { _ = try LogQuery().open([.bundle("x.tar.gz")], onIssue: { _ in }) }
        #expect(throws: QueryError.self) { _ = try SourceResolver().resolve(folder.path) }
        #expect(try SourceResolver().resolve(unknown) == .file(unknown))
    }

    @Test func aReaderDroppedEarlyReleasesItsThread() throws {
        let channel = BatchChannel<ThreadedFileReader.Item>()
        let stopped = DispatchSemaphore(value: 0)
        let thread = Thread {
            channel.open(failure: nil)
            var batch: [ThreadedFileReader.Item] = [.issue(ImportIssue(file: "f", line: 1, reason: "r"))]
            do {
                for _ in 0..<100 {
                    batch.append(.issue(ImportIssue(file: "f", line: 1, reason: "r")))
                    try channel.put(&batch)
                }
            } catch is BatchChannelCancelled {
                stopped.signal()
            } catch {}
        }
        thread.start()
        try channel.waitUntilOpened()
        #expect(try channel.take() != nil)
        channel.cancel()
        // The producer was blocked on the full channel: cancel must wake it and end its loop.
        #expect(stopped.wait(timeout: .now() + 10) == .success)
    }

    @Test func aFileReadToTheEndAfterOthersWereDropped() throws {
        let folder = try TemporaryDirectory("query-cancel")
        let file = try folder.write("many.ndjson", ndjson(Self.records) + ndjson(Self.records) + ndjson(Self.records))
        for _ in 0..<5 {
            let reader = try ThreadedFileReader(.path(file), options: ImportOptions())
            #expect(try reader.nextBatch()?.isEmpty == false)
        }
        let reader = try ThreadedFileReader(.path(file), options: ImportOptions())
        var count = 0
        while let batch = try reader.nextBatch() { count += batch.count }
        #expect(count == 9000)
    }
}
