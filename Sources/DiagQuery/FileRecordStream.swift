import DiagImport
import DiagModel
import Foundation

/// A plain log file read by DiagImport on its own thread and handed over in batches through a
/// two-batch channel, so that several files can be merged by time in flat memory. Records are
/// filtered here, on the reading side of the query; issues come out in file order among them.
final class FileRecordStream: RecordStream {
    private let channel: BatchChannel
    private let selection: RecordSelection
    private let condition: QueryCondition?
    private let issues: IssueCounter
    private var batch: [FileItem] = []
    private var index = 0

    init(path: String, selection: RecordSelection, condition: QueryCondition?, options: ImportOptions, issues: IssueCounter) throws {
        self.selection = selection
        self.condition = condition
        self.issues = issues
        let channel = BatchChannel()
        self.channel = channel
        let thread = Thread {
            Self.read(path: path, options: options, into: channel)
        }
        thread.name = "diag-read"
        thread.start()
        try channel.waitUntilOpened()
    }

    deinit { channel.cancel() }

    func next() throws -> LogRecord? {
        while true {
            while index < batch.count {
                let item = batch[index]
                index += 1
                switch item {
                case .issue(let issue):
                    issues.record(issue)
                case .record(let record):
                    guard selection.matches(record) else { continue }
                    if let condition, !condition.matches(record) { continue }
                    return record
                }
            }
            guard let next = try channel.take() else { return nil }
            batch = next
            index = 0
        }
    }

    /// The reading thread: opens the file, then sends records and issues until the end.
    private static func read(path: String, options: ImportOptions, into channel: BatchChannel) {
        let reader: LogFileReader
        do {
            reader = try LogFileReader(path: path, options: options)
        } catch {
            channel.open(failure: QueryError(error.description))
            return
        }
        channel.open(failure: nil)
        var pending: [FileItem] = []
        pending.reserveCapacity(BatchChannel.batchSize)
        do {
            try reader.forEach(
                record: { record in
                    pending.append(.record(record))
                    if pending.count >= BatchChannel.batchSize { try channel.put(&pending) }
                },
                issue: { issue in
                    pending.append(.issue(issue))
                    if pending.count >= BatchChannel.batchSize { try channel.put(&pending) }
                })
            try channel.put(&pending)
            channel.finish(failure: nil)
        } catch is BatchChannel.Cancelled {
            return
        } catch {
            channel.finish(failure: QueryError("\(path): \(error)"))
        }
    }
}

@available(*, unavailable)
extension FileRecordStream: Sendable {}

enum FileItem: Sendable {
    case record(LogRecord)
    case issue(ImportIssue)
}
