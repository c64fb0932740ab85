import DiagModel
import DiagPatterns

/// `diag collect --baseline OTHER`: the baseline's patterns, mined before the collection, which
/// the collection's own pass over every record (`ReportPatterns.mine`) completes with the new
/// bundle's records, so that its report.html begins with what changed since the baseline, as
/// `diag report BUNDLE --baseline OTHER` shows it.
public struct ReportBaseline: Sendable {
    /// The baseline as the user named it, shown in the section.
    public let name: String
    /// The baseline's records counted as `base`; the bundle's are added as `target`.
    private var miner: PatternMiner<PatternDiff.Sides>

    public init(name: String, miner: PatternMiner<PatternDiff.Sides>) {
        self.name = name
        self.miner = miner
    }

    mutating func count(_ record: LogRecord) {
        miner.add(record.eventMessage) { $0.target.count(record) }
    }

    /// The section that goes at the top of the page (`ReportDiffSection`).
    func section() -> String {
        ReportDiffSection.html(PatternDiff(miner.finish()), baseline: name)
    }
}
