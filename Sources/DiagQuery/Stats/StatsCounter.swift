import DiagImport
import DiagModel
import DiagStore
import Foundation

/// How `diag stats` counted, for its report: by aggregate SQL in the stores, or record by record,
/// and why.
public struct StatsCount {
    public var tally: StatsTally
    /// `sql-aggregate` or `streamed`, as `--style json` names it.
    public var method: String
    /// Why the records were streamed; nil for aggregate SQL.
    public var reason: String?
    /// Lines of plain files that were not records, and were not counted.
    public var refusedLines: Int
}

/// `diag stats` over any sources: stores and bundles answer with aggregate SQL (counted, never
/// fetched) when the predicate is decided entirely in SQL; otherwise, or when a plain file is
/// among the sources, every selected record is streamed and counted.
public enum StatsCounter {
    /// Counts the records of `start`..<`end` (nil for no bound) that `condition` selects, every level.
    public static func count(
        _ sources: [QuerySource], condition: QueryCondition?, start: Int64?, end: Int64?,
        bundleOpener: (any BundleOpener)?, options: ImportOptions, onIssue: @escaping (ImportIssue) -> Void
    ) throws -> StatsCount {
        var tally = StatsTally()
        let hasFile = sources.contains { switch $0 { case .file, .appleLog: true; default: false } }
        if !hasFile, condition?.residual == nil {
            let filter = StoreFilter(
                start: [start, condition?.start].compactMap { $0 }.max(),
                end: [end, condition?.end].compactMap { $0 }.min(),
                whereSQL: condition?.sqlWhere, bindings: condition?.bindings ?? [],
                messageSearch: condition?.messageSearch ?? [])
            try countInSQL(sources, filter: filter, bundleOpener: bundleOpener, into: &tally)
            return StatsCount(tally: tally, method: "sql-aggregate", reason: nil, refusedLines: 0)
        }
        let selection = RecordSelection(start: start, end: end, includeInfo: true, includeDebug: true)
        let results = try LogQuery(selection: selection, condition: condition)
            .open(sources, bundleOpener: bundleOpener, options: options, onIssue: onIssue)
        while let record = try results.next() { tally.add(record) }
        let reason = hasFile ? "a plain log file is read record by record" : "the predicate has a part SQL cannot decide (a residual)"
        return StatsCount(tally: tally, method: "streamed", reason: reason, refusedLines: results.refusedCount)
    }

    /// Every grouping of every store and bundle, by `LogStore.allGroupedCounts` (one read of each chunk).
    private static func countInSQL(
        _ sources: [QuerySource], filter: StoreFilter, bundleOpener: (any BundleOpener)?, into tally: inout StatsTally
    ) throws {
        for source in sources {
            var opened: (any OpenedBundleStore)?
            let url: URL
            switch source {
            case .store(let store): url = store
            case .bundle(let path):
                guard let bundleOpener else { throw QueryError("\(path): this build of diag cannot read bundles") }
                opened = try bundleOpener.openStore(inBundle: path)
                url = opened!.storeURL
            case .file, .appleLog: continue
            }
            let store = try LogStore.openForReading(at: url)
            for (grouping, groups) in try store.allGroupedCounts(filter: filter) {
                for group in groups {
                    tally.add(grouping, group.key, events: group.count, bytes: group.messageBytes)
                }
            }
            withExtendedLifetime(opened) {}
        }
    }
}
