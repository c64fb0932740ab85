/// The online pattern miner: each message joins the pattern whose words it has (a `<*>` takes
/// any word), or starts a new one; `finish()` then merges the patterns that differ only where
/// a word varies.
///
/// Deterministic: the same messages in the same order give the same patterns. Memory is
/// bounded: at most `capacity` patterns. When they are all taken, the patterns are merged as
/// `finish()` would (compaction); a message that still finds no place is counted in
/// `overflowCount` and belongs to no pattern.
///
/// What it learnt from the published parsers: Drain (He et al., ICWS 2017) compares a message
/// only with the patterns of its own length; Brain (Yu et al., 2023) sees a variable as a
/// position whose values vary among otherwise equal messages. Here the masks take the shapes
/// that vary (MessageMasker), a message joins a pattern only when every constant word agrees
/// (so `VM Started` and `VM Paused` stay two events), and the merge pass turns a position into
/// `<*>` when otherwise equal patterns take many values there, each rarely (a user name), not a
/// few values often (a verb).
public struct PatternMiner<Summary: PatternSummary>: Sendable {
    public static var defaultCapacity: Int { 10_000 }

    public let capacity: Int
    public private(set) var overflowCount = 0
    public private(set) var compactions = 0
    /// The live patterns, in the order they were made.
    public private(set) var clusters: [MinedPattern<Summary>] = []

    private var clustersByLength: [Int: [Int]] = [:]
    private var clusterOfMasked: [String: Int] = [:]
    private let cacheCapacity: Int
    private var compactedAt = 0

    public init(capacity: Int = 10_000, cacheCapacity: Int = 65_536) {
        precondition(capacity > 0)
        self.capacity = capacity
        self.cacheCapacity = cacheCapacity
    }

    /// Adds one message, and lets `update` count it in its pattern's summary; returns false
    /// when it overflowed the cap.
    @discardableResult
    public mutating func add(_ message: String, update: (inout Summary) -> Void = { _ in }) -> Bool {
        count(in: patternIndex(masked: MessageMasker.mask(message)), update: update)
    }

    /// `add` in two steps, for a reader that masks messages elsewhere (on other threads) and
    /// remembers the answers of a generation (`cacheGeneration`): the index of the live pattern
    /// a masked message joins, nil when it overflows the cap. The same calls in the same order
    /// as `add` would make give the same patterns.
    public mutating func patternIndex(masked: String) -> Int? {
        clusterIndex(masked)
    }

    /// Counts one message in the pattern `patternIndex` gave (nil: in the overflow).
    @discardableResult
    public mutating func count(in index: Int?, update: (inout Summary) -> Void = { _ in }) -> Bool {
        guard let index else {
            overflowCount += 1
            return false
        }
        clusters[index].count += 1
        update(&clusters[index].summary)
        return true
    }

    /// Changes whenever the answers of `patternIndex` may change: a masked message that had an
    /// index keeps it, and asking again gives it, as long as the generation is the same.
    public private(set) var cacheGeneration = 0

    /// The patterns: the live ones merged where their differences are variables.
    public func finish() -> [MinedPattern<Summary>] {
        PatternMerger.merge(clusters)
    }

    private mutating func clusterIndex(_ masked: String) -> Int? {
        if let known = clusterOfMasked[masked] { return known }
        let words = MessageMasker.words(masked).map(String.init)
        var index = fittingCluster(words)
        if index == nil, clusters.count >= capacity, clusters.count > compactedAt {
            compact()
            index = fittingCluster(words)
        }
        if index == nil, clusters.count < capacity {
            index = clusters.count
            clusters.append(MinedPattern(words: words, count: 0, summary: Summary()))
            clustersByLength[words.count, default: []].append(clusters.count - 1)
        }
        guard let index else { return nil }
        if clusterOfMasked.count >= cacheCapacity {
            clusterOfMasked.removeAll(keepingCapacity: true)
            cacheGeneration += 1
        }
        clusterOfMasked[masked] = index
        return index
    }

    /// The most specific pattern every constant word of which the message has.
    private func fittingCluster(_ words: [String]) -> Int? {
        var best: Int?
        var bestConstants = -1
        for candidate in clustersByLength[words.count] ?? [] {
            let pattern = clusters[candidate].words
            var constants = 0
            var fits = true
            for position in pattern.indices where pattern[position] != MessageMasker.wildcard {
                guard pattern[position] == words[position] else { fits = false; break }
                constants += 1
            }
            if fits, constants > bestConstants {
                best = candidate
                bestConstants = constants
            }
        }
        return best
    }

    private mutating func compact() {
        clusters = PatternMerger.merge(clusters)
        compactions += 1
        compactedAt = clusters.count
        clusterOfMasked.removeAll(keepingCapacity: true)
        cacheGeneration += 1
        clustersByLength = [:]
        for index in clusters.indices { clustersByLength[clusters[index].words.count, default: []].append(index) }
    }
}

/// What a pattern counts of its messages beside their number; merged when patterns merge.
public protocol PatternSummary: Sendable {
    init()
    mutating func merge(_ other: Self)
}

/// No summary: the miner alone.
public struct NoSummary: PatternSummary {
    public init() {}
    public mutating func merge(_ other: NoSummary) {}
}

/// A pattern: its words, how many messages it holds and their summary.
public struct MinedPattern<Summary: PatternSummary>: Sendable {
    public var words: [String]
    public var count: Int
    public var summary: Summary

    public var text: String { words.joined(separator: " ") }
    public var id: String { PatternID.of(text) }
    var wildcardCount: Int { words.reduce(0) { $0 + ($1 == MessageMasker.wildcard ? 1 : 0) } }
}

/// Short stable identifiers: the same pattern text gives the same ID in every run and on
/// every machine (FNV-1a, 64 bits, of the UTF-8 text; its first 40 bits in hex).
public enum PatternID {
    public static func of(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash >> 24, radix: 16)
        return String(repeating: "0", count: max(0, 10 - hex.count)) + hex
    }
}
