import Foundation

/// The durations of one interval name: count, total, min, max and mean exactly; percentiles
/// (nearest rank) exactly while at most `exactLimit` durations came, then from a histogram of
/// 128 buckets per doubling (each within 0.55% of its values), so that a name's memory stays
/// bounded whatever the input; and the small histogram the output shows (MetricKit's
/// histogrammed signpost durations are the model), by decade from under 1 ms to 10 s and more.
public struct DurationStatistics: Sendable {
    public static let exactLimit = 4096
    /// The upper bounds (exclusive, nanoseconds) of the shown buckets; the last has none.
    public static let bucketBounds: [Int64] = [1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000]
    public static let bucketLabels = ["<1ms", "1-10ms", "10-100ms", "0.1-1s", "1-10s", ">=10s"]
    static let stepsPerDoubling = 128.0

    public private(set) var count = 0
    public private(set) var total: Int64 = 0
    public private(set) var minimum = Int64.max
    public private(set) var maximum = Int64.min
    public private(set) var buckets = [Int](repeating: 0, count: bucketLabels.count)
    private var exact: [Int64] = []
    private var fine: [Int: Int] = [:]

    public init() {}

    public var percentilesAreExact: Bool { count <= Self.exactLimit }
    public var mean: Double { count == 0 ? 0 : Double(total) / Double(count) }

    public mutating func add(_ duration: Int64) {
        let value = max(0, duration)
        count += 1
        total &+= value
        minimum = min(minimum, value)
        maximum = max(maximum, value)
        buckets[Self.bucketBounds.firstIndex { value < $0 } ?? Self.bucketBounds.count] += 1
        if count <= Self.exactLimit {
            exact.append(value)
        } else {
            if !exact.isEmpty {
                for kept in exact { fine[Self.fineBucket(kept), default: 0] += 1 }
                exact = []
            }
            fine[Self.fineBucket(value), default: 0] += 1
        }
    }

    /// The nearest-rank percentile: the smallest duration with at least `fraction` of the
    /// durations at or below it.
    public func percentile(_ fraction: Double) -> Int64 {
        guard count > 0 else { return 0 }
        let rank = max(1, Int((fraction * Double(count)).rounded(.up)))
        if percentilesAreExact {
            return exact.sorted()[rank - 1]
        }
        var seen = 0
        for bucket in fine.keys.sorted() {
            seen += fine[bucket]!
            if seen >= rank { return min(maximum, max(minimum, Self.representative(of: bucket))) }
        }
        return maximum
    }

    /// Several percentiles with one sort.
    public func percentiles(_ fractions: [Double]) -> [Int64] {
        guard count > 0 else { return fractions.map { _ in 0 } }
        if percentilesAreExact {
            let sorted = exact.sorted()
            return fractions.map { sorted[max(1, Int(($0 * Double(count)).rounded(.up))) - 1] }
        }
        return fractions.map(percentile)
    }

    static func fineBucket(_ value: Int64) -> Int {
        value <= 0 ? -1 : Int((log2(Double(value)) * stepsPerDoubling).rounded(.down))
    }

    /// The geometric middle of a fine bucket.
    static func representative(of bucket: Int) -> Int64 {
        bucket < 0 ? 0 : Int64(exp2((Double(bucket) + 0.5) / stepsPerDoubling).rounded())
    }
}
