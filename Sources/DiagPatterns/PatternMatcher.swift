/// Finds the pattern of a message among finished patterns: the one of its length whose words
/// equal the message's wherever the pattern has no `<*>`, the most specific first.
///
/// `diag show --patterns` mines in a first pass and annotates in a second, so that every
/// record carries its final pattern, and `--pattern ID` selects exactly those records.
public struct PatternMatcher<Summary: PatternSummary>: Sendable {
    public let patterns: [MinedPattern<Summary>]
    private var byLength: [Int: [Int]] = [:]
    private var cache: [String: Int] = [:]
    private let cacheCapacity: Int

    public init(_ patterns: [MinedPattern<Summary>], cacheCapacity: Int = 65_536) {
        self.patterns = patterns
        self.cacheCapacity = cacheCapacity
        // Most specific first: fewer wildcards, then the order of the patterns.
        let order = patterns.indices.sorted {
            let (a, b) = (patterns[$0].wildcardCount, patterns[$1].wildcardCount)
            return a != b ? a < b : $0 < $1
        }
        for index in order { byLength[patterns[index].words.count, default: []].append(index) }
    }

    /// The index of the message's pattern in `patterns`, nil when none has its shape (a
    /// message that overflowed the miner's cap).
    public mutating func match(_ message: String) -> Int? {
        match(masked: MessageMasker.mask(message))
    }

    public mutating func match(masked: String) -> Int? {
        if let known = cache[masked] { return known }
        let words = MessageMasker.words(masked)
        var found: Int?
        search: for candidate in byLength[words.count] ?? [] {
            let pattern = patterns[candidate].words
            for position in pattern.indices where pattern[position] != MessageMasker.wildcard && pattern[position] != words[position] {
                continue search
            }
            found = candidate
            break
        }
        guard let found else { return nil }
        if cache.count >= cacheCapacity { cache.removeAll(keepingCapacity: true) }
        cache[masked] = found
        return found
    }
}

