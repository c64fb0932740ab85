/// Two sides mined together, so that a pattern is the same on both: which patterns are new in
/// TARGET, gone from it, or logged at a rate that changed beyond chance.
///
/// A rate is a share of its side's volume: with `n = base + target` records of a pattern, if
/// nothing changed the target's count would follow Binomial(n, p), p = the target's share of
/// all records. A change counts when that test's z-score is beyond `zThreshold` (p < 0.001,
/// two-sided), the larger count is at least `minimumCount`, and the shares differ by at least
/// `minimumFactor`; so 1 against 2 is never "doubled".
public struct PatternDiff: Sendable {
    public static let zThreshold = 3.29
    public static let minimumCount = 5
    public static let minimumFactor = 1.5

    public struct Sides: PatternSummary {
        public var base = RecordPatternSummary()
        public var target = RecordPatternSummary()
        public init() {}
        public mutating func merge(_ other: Sides) {
            base.merge(other.base)
            target.merge(other.target)
        }
    }

    public struct Entry: Sendable {
        public let id: String
        public let pattern: String
        public let base: RecordPatternSummary
        public let target: RecordPatternSummary
        /// The z-score of the target's count against what its share of the volume predicts.
        public let z: Double
    }

    public let baseTotal: Int
    public let targetTotal: Int
    /// Only in TARGET: Error and Fault patterns first, then by count.
    public let new: [Entry]
    /// Only in BASE, by count.
    public let gone: [Entry]
    /// In both, at a rate that changed beyond chance: Error and Fault patterns first, then by |z|.
    public let changed: [Entry]

    public init(_ patterns: [MinedPattern<Sides>]) {
        let baseTotal = patterns.reduce(0) { $0 + $1.summary.base.count }
        let targetTotal = patterns.reduce(0) { $0 + $1.summary.target.count }
        self.baseTotal = baseTotal
        self.targetTotal = targetTotal
        let share = baseTotal + targetTotal == 0 ? 0.5 : Double(targetTotal) / Double(baseTotal + targetTotal)
        var new: [Entry] = [], gone: [Entry] = [], changed: [Entry] = []
        for pattern in patterns {
            let (b, t) = (pattern.summary.base.count, pattern.summary.target.count)
            let entry = Entry(id: pattern.id, pattern: pattern.text, base: pattern.summary.base, target: pattern.summary.target,
                              z: Self.zScore(base: b, target: t, targetShare: share))
            if b == 0 {
                new.append(entry)
            } else if t == 0 {
                gone.append(entry)
            } else if Self.isSignificant(entry, baseTotal: baseTotal, targetTotal: targetTotal) {
                changed.append(entry)
            }
        }
        let problemsFirst: (Entry, Entry, (Entry) -> Double) -> Bool = { a, b, key in
            let (pa, pb) = (a.target.problems > 0, b.target.problems > 0)
            if pa != pb { return pa }
            let (ka, kb) = (key(a), key(b))
            return ka != kb ? ka > kb : a.id < b.id
        }
        self.new = new.sorted { problemsFirst($0, $1) { Double($0.target.count) } }
        self.gone = gone.sorted { problemsFirst($0, $1) { Double($0.base.count) } }
        self.changed = changed.sorted { problemsFirst($0, $1) { abs($0.z) } }
    }

    /// New patterns with Error or Fault records: what `--fail-on-new-errors` fails on.
    public var newProblems: [Entry] { new.filter { $0.target.problems > 0 } }

    static func zScore(base: Int, target: Int, targetShare p: Double) -> Double {
        let n = Double(base + target)
        let variance = n * p * (1 - p)
        guard variance > 0 else { return 0 }
        return (Double(target) - n * p) / variance.squareRoot()
    }

    static func isSignificant(_ entry: Entry, baseTotal: Int, targetTotal: Int) -> Bool {
        let (b, t) = (entry.base.count, entry.target.count)
        guard max(b, t) >= minimumCount, abs(entry.z) >= zThreshold, baseTotal > 0, targetTotal > 0 else { return false }
        let baseShare = Double(b) / Double(baseTotal)
        let targetShare = Double(t) / Double(targetTotal)
        return max(baseShare, targetShare) >= minimumFactor * min(baseShare, targetShare)
    }
}
