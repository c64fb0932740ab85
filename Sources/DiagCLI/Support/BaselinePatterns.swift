import DiagCommandLine
import DiagPatterns

/// The baseline of `diag report --baseline` and `diag collect --baseline`: every record of a
/// source (a bundle, a store or a log file; every level), mined as the base side of a diff.
enum BaselinePatterns {
    /// Every record, all levels, times in UTC: the filters of the report's diff.
    static func filter() throws -> RecordFilter {
        try RecordFilter(
            predicate: nil, predicateFile: nil, variables: [], start: nil, end: nil, last: nil,
            info: true, debug: true, processes: [], senders: [], timezone: "UTC", year: nil)
    }

    /// The baseline's records counted as the base side; a line of a file that is not a record
    /// makes the baseline refused (exit 65), since its diff would miss it.
    static func mine(_ source: String) throws -> PatternMiner<PatternDiff.Sides> {
        var miner = PatternMiner<PatternDiff.Sides>()
        let refused = try filter().mine([source], into: &miner) { $0.base.count($1) }
        if refused > 0 {
            throw InputError("--baseline \(source): \(refused) line\(refused == 1 ? " is" : "s are") not records (each reported above); a baseline must be records only")
        }
        return miner
    }
}
