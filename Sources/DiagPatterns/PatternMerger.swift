/// The merge pass: patterns of one length that differ at one position only are one pattern
/// when that position is a variable: one of them already has `<*>` there; or they take at
/// least `minimumValues` values there with at most `maximumMeanCount` messages a value on
/// average (many rare values: a name; a few frequent ones, like Started/Stopped, are words of
/// different events); or they take `manyValues` values or more beside at least two constant
/// words (ten user names each logged often). Repeated until nothing merges, since one merge
/// can reveal the next.
///
/// Compaction at the miner's cap runs the same pass early, when counts are still small: under
/// the cap's pressure it merges more eagerly than a finished pass would.
enum PatternMerger {
    static let minimumValues = 3
    static let maximumMeanCount = 3
    static let manyValues = 8

    static func merge<Summary>(_ patterns: [MinedPattern<Summary>]) -> [MinedPattern<Summary>] {
        var current = patterns
        while true {
            let merged = mergeOnce(current)
            if merged.count == current.count { return merged }
            current = merged
        }
    }

    private static func mergeOnce<Summary>(_ patterns: [MinedPattern<Summary>]) -> [MinedPattern<Summary>] {
        var parent = Array(patterns.indices)
        var words = patterns.map(\.words)
        var counts = patterns.map(\.count)
        func root(_ index: Int) -> Int {
            var index = index
            while parent[index] != index { index = parent[index] }
            return index
        }
        func union(_ first: Int, _ second: Int) {
            let (a, b) = (root(first), root(second))
            guard a != b else { return }
            let (low, high) = a < b ? (a, b) : (b, a)
            for position in words[low].indices where words[low][position] != words[high][position] {
                words[low][position] = MessageMasker.wildcard
            }
            parent[high] = low
            counts[low] += counts[high]
        }
        var byLength: [Int: [Int]] = [:]
        for index in patterns.indices { byLength[patterns[index].words.count, default: []].append(index) }
        for length in byLength.keys.sorted() {
            let members = byLength[length]!
            for position in 0..<length {
                // The patterns equal but for this position, in their order.
                var groups: [[String]: [Int]] = [:]
                var order: [[String]] = []
                for member in members where root(member) == member {
                    var key = words[member]
                    key[position] = MessageMasker.wildcard
                    if groups[key] == nil { order.append(key) }
                    groups[key, default: []].append(member)
                }
                for key in order {
                    let group = groups[key]!
                    guard group.count > 1 else { continue }
                    let values = Set(group.map { words[$0][position] })
                    let total = group.reduce(0) { $0 + counts[$1] }
                    let variable = values.contains(MessageMasker.wildcard)
                        || (values.count >= manyValues && key.count(where: { $0 != MessageMasker.wildcard }) >= 2)
                        || (values.count >= minimumValues && total <= values.count * maximumMeanCount)
                    guard variable else { continue }
                    for member in group.dropFirst() { union(group[0], member) }
                }
            }
        }
        var merged: [Int: Int] = [:]
        var result: [MinedPattern<Summary>] = []
        for index in patterns.indices {
            let top = root(index)
            if let into = merged[top] {
                result[into].count += patterns[index].count
                result[into].summary.merge(patterns[index].summary)
            } else {
                merged[top] = result.count
                var pattern = patterns[index]
                pattern.words = words[top]
                result.append(pattern)
            }
        }
        return result
    }
}
