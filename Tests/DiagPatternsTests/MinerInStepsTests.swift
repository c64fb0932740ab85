import DiagPatterns
import Testing

/// `patternIndex` and `count` in place of `add`, remembering each masked message's index for as
/// long as `cacheGeneration` stays the same (what `diag patterns` over a store does, the
/// messages masked on other threads), give the patterns `add` gives.
@Suite struct MinerInStepsTests {
    /// The answers remembered per generation: asked again only after the generation changed, or
    /// when the message overflowed.
    static func mineInSteps(_ messages: [String], capacity: Int, cacheCapacity: Int) -> PatternMiner<NoSummary> {
        var miner = PatternMiner<NoSummary>(capacity: capacity, cacheCapacity: cacheCapacity)
        var remembered: [String: (generation: Int, index: Int)] = [:]
        for message in messages {
            let masked = MessageMasker.mask(message)
            var index: Int?
            if let known = remembered[masked], known.generation == miner.cacheGeneration {
                index = known.index
            } else {
                index = miner.patternIndex(masked: masked)
                if let index { remembered[masked] = (miner.cacheGeneration, index) }
            }
            miner.count(in: index)
        }
        return miner
    }

    @Test(arguments: [(10_000, 65_536), (10_000, 3), (6, 65_536), (6, 2), (3, 4)])
    func givesThePatternsOfAdd(capacity: Int, cacheCapacity: Int) {
        var messages = MinerTests.messages(seed: 11, count: 3000)
        // Messages of eight lengths: a small cap both compacts and overflows.
        for round in 0..<40 { messages.insert("tick" + String(repeating: " tock", count: round % 8) + " round \(round)", at: round * 70) }
        var byAdd = PatternMiner<NoSummary>(capacity: capacity, cacheCapacity: cacheCapacity)
        for message in messages { byAdd.add(message) }
        let inSteps = Self.mineInSteps(messages, capacity: capacity, cacheCapacity: cacheCapacity)
        #expect(inSteps.finish().map(\.text) == byAdd.finish().map(\.text))
        #expect(inSteps.finish().map(\.count) == byAdd.finish().map(\.count))
        #expect(inSteps.overflowCount == byAdd.overflowCount)
        #expect(inSteps.compactions == byAdd.compactions)
        if capacity == 6 { #expect(byAdd.overflowCount > 0 || byAdd.compactions > 0) }
    }

    @Test func theGenerationChangesWhenTheCacheIsEmptiedOrThePatternsCompacted() {
        var miner = PatternMiner<NoSummary>(capacity: 10_000, cacheCapacity: 2)
        let start = miner.cacheGeneration
        for message in ["a 1", "b 2", "c 3"] { miner.add(message) }
        #expect(miner.cacheGeneration != start)
        let messages = (0..<60).map { "login of user u\(String(UnicodeScalar(UInt8(97 + $0 % 26))))x\(String(UnicodeScalar(UInt8(97 + $0 / 26))))" }
        var capped = PatternMiner<NoSummary>(capacity: 20)
        var generations: Set<Int> = [capped.cacheGeneration]
        for message in messages {
            capped.add(message)
            generations.insert(capped.cacheGeneration)
        }
        #expect(capped.compactions >= 1)
        #expect(generations.count == capped.compactions + 1)
    }
}
