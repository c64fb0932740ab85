import DiagImport
import DiagModel

/// A plain log file as a query source: read on its own thread (`ThreadedFileReader`), filtered
/// here by the selection and the whole predicate; issues come out in file order among the records.
final class FileRecordStream: RecordStream {
    private let reader: ThreadedFileReader
    private let path: String
    private let selection: RecordSelection
    private let condition: QueryCondition?
    private let issues: IssueCounter
    private var batch: [ThreadedFileReader.Item] = []
    private var index = 0

    init(path: String, selection: RecordSelection, condition: QueryCondition?, options: ImportOptions, issues: IssueCounter) throws {
        do {
            reader = try ThreadedFileReader(path == "-" ? .standardInput : .path(path), options: options)
        } catch let error as ImportError {
            throw QueryError(error: error)
        }
        self.path = path
        self.selection = selection
        self.condition = condition
        self.issues = issues
    }

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
            do {
                guard let next = try reader.nextBatch() else { return nil }
                batch = next
                index = 0
            } catch let error as ImportError {
                throw QueryError(error: error)
            } catch {
                throw QueryError("\(path): \(error)")
            }
        }
    }
}

@available(*, unavailable)
extension FileRecordStream: Sendable {}

extension QueryError {
    init(error: ImportError) {
        if case .unknownFormat = error {
            self.init(error.description, badInput: true)
        } else {
            self.init(error.description)
        }
    }
}
