import DiagImport
import DiagModel
import Foundation

/// A `log show` query: the selection (window, levels, processes, senders) and an optional
/// predicate condition, run over any mix of sources, yielding records in time order.
public struct LogQuery {
    public var selection: RecordSelection
    public var condition: QueryCondition?

    public init(selection: RecordSelection = RecordSelection(), condition: QueryCondition? = nil) {
        self.selection = selection
        self.condition = condition
    }

    /// Opens every source and returns the merged stream. Plain files report refused lines to
    /// `onIssue` as they are met, and the stream goes on past them.
    public func open(
        _ sources: [QuerySource], bundleOpener: (any BundleOpener)? = nil, options: ImportOptions = ImportOptions(),
        onIssue: @escaping (ImportIssue) -> Void
    ) throws -> QueryResults {
        var streams: [any RecordStream] = []
        var bundles: [any OpenedBundleStore] = []
        let issues = IssueCounter(report: onIssue)
        for source in sources {
            switch source {
            case .store(let url):
                streams.append(try StoreRecordStream(store: url, selection: selection, condition: condition))
            case .bundle(let path):
                guard let bundleOpener else {
                    throw QueryError("\(path): a bundle, and this build of diag has no bundle reader")
                }
                let opened = try bundleOpener.openStore(inBundle: path)
                bundles.append(opened)
                streams.append(try StoreRecordStream(store: opened.storeURL, selection: selection, condition: condition))
            case .file(let path):
                streams.append(try FileRecordStream(path: path, selection: selection, condition: condition, options: options, issues: issues))
            case .appleLog(let path):
                streams.append(contentsOf: try AppleLogRecordStream.streams(path: path, selection: selection, condition: condition))
            }
        }
        return QueryResults(stream: MergedRecordStream(streams), bundles: bundles, issues: issues)
    }
}

/// The records of an opened query, in time order; keeps opened bundles readable until released.
///
/// Not thread-safe: read from one task.
public final class QueryResults: RecordStream {
    private var stream: MergedRecordStream
    private let bundles: [any OpenedBundleStore]
    private let issues: IssueCounter

    init(stream: MergedRecordStream, bundles: [any OpenedBundleStore], issues: IssueCounter) {
        self.stream = stream
        self.bundles = bundles
        self.issues = issues
    }

    public func next() throws -> LogRecord? { try stream.next() }

    /// How many lines of plain files were refused so far.
    public var refusedCount: Int { issues.count }
}

@available(*, unavailable)
extension QueryResults: Sendable {}

/// Counts the issues of every file of a query and passes each to the caller.
final class IssueCounter {
    private let report: (ImportIssue) -> Void
    private(set) var count = 0

    init(report: @escaping (ImportIssue) -> Void) { self.report = report }

    func record(_ issue: ImportIssue) {
        count += 1
        report(issue)
    }
}

@available(*, unavailable)
extension IssueCounter: Sendable {}
