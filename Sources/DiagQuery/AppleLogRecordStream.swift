import DiagAppleLog
import DiagModel

/// Apple's unified logs as a query source: one stream per folder of tracev3 files (Persist,
/// Special, Signpost, …), each reading one file at a time, filtered here by the selection and
/// the whole predicate. A damaged file stops the query with exit status 65, naming the file.
final class AppleLogRecordStream: RecordStream {
    private var reader: AppleLogGroupReader
    private let selection: RecordSelection
    private let condition: QueryCondition?

    static func streams(path: String, selection: RecordSelection, condition: QueryCondition?) throws -> [AppleLogRecordStream] {
        let archive: AppleLogArchive
        do {
            archive = try AppleLogArchive(path: path)
        } catch {
            throw QueryError(error.message, badInput: !error.isUnreadable)
        }
        return archive.groups.map { AppleLogRecordStream(reader: AppleLogGroupReader(archive: archive, files: $0), selection: selection, condition: condition) }
    }

    private init(reader: AppleLogGroupReader, selection: RecordSelection, condition: QueryCondition?) {
        self.reader = reader
        self.selection = selection
        self.condition = condition
    }

    func next() throws -> LogRecord? {
        while true {
            let record: LogRecord?
            do {
                record = try reader.next()
            } catch {
                throw QueryError(error.message, badInput: !error.isUnreadable)
            }
            guard let record else { return nil }
            guard selection.matches(record) else { continue }
            if let condition, !condition.matches(record) { continue }
            return record
        }
    }
}

@available(*, unavailable)
extension AppleLogRecordStream: Sendable {}
