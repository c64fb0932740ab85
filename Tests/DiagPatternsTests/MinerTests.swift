import DiagPatterns
import Testing

@Suite struct MinerTests {
    /// Messages of a few events, in a seeded order, with variable parts.
    static func messages(seed: UInt64, count: Int) -> [String] {
        var state = seed
        func next() -> UInt64 {
            state = state &+ 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let users = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"]
        return (0..<count).map { _ in
            let n = next()
            switch n % 5 {
            case 0: return "Uploaded batch \(n % 50) to container iCloud.com.example: \(n % 997) records"
            case 1: return "session opened for user \(users[Int(n / 5 % 10)]) by uid=\(n % 1000)"
            case 2: return "VM \(["Started", "Paused"][Int(n / 5 % 2)]) (Lifecycle Event)"
            case 3: return "Request rate limited, retry after \(n % 2000) ms"
            default: return "Removed \(n % 9) stale files from /var/tmp/\(n % 77)"
            }
        }
    }

    static func mine(_ messages: [String], capacity: Int = 10_000) -> (PatternMiner<NoSummary>, [MinedPattern<NoSummary>]) {
        var miner = PatternMiner<NoSummary>(capacity: capacity)
        for message in messages { miner.add(message) }
        return (miner, miner.finish())
    }

    @Test func sameMessagesInTheSameOrderGiveTheSamePatternsAndIDs() {
        let messages = Self.messages(seed: 7, count: 5000)
        let first = Self.mine(messages).1
        let second = Self.mine(messages).1
        #expect(first.map(\.id) == second.map(\.id))
        #expect(first.map(\.text) == second.map(\.text))
        #expect(first.map(\.count) == second.map(\.count))
    }

    @Test func idsAreStableHashesOfThePatternText() {
        // FNV-1a 64 of the UTF-8 text, first 40 bits: the same in every run and on every machine.
        #expect(PatternID.of("") == "cbf29ce484")
        #expect(PatternID.of("a") == "af63dc4c86")
        #expect(PatternID.of("retry <*> of <*>") == PatternID.of("retry <*> of <*>"))
        #expect(PatternID.of("retry <*> of <*>") != PatternID.of("retry <*> of <*> "))
        #expect(PatternID.of("x").utf8.count == 10)
    }

    @Test func wordsOfDifferentEventsStaySeparateAndNamesMerge() {
        let (_, patterns) = Self.mine(Self.messages(seed: 3, count: 5000))
        let texts = Set(patterns.map(\.text))
        #expect(texts.contains("VM Started (Lifecycle Event)"))
        #expect(texts.contains("VM Paused (Lifecycle Event)"))
        #expect(texts.contains("session opened for user <*> by uid=<*>"))
        #expect(texts.contains("Uploaded batch <*> to container iCloud.com.example: <*> records"))
        #expect(texts.contains("Request rate limited, retry after <*>"))
        #expect(texts.contains("Removed <*> stale files from <*>"))
        #expect(patterns.count == 6)
        #expect(patterns.reduce(0) { $0 + $1.count } == 5000)
    }

    @Test func theCapCountsWhatDoesNotFit() {
        // Eight events of eight lengths: patterns of different lengths never merge, so no
        // compaction can make room, and three events' 30 messages find no place.
        var messages: [String] = []
        for round in 0..<10 {
            for length in 1...8 { messages.append("tick" + String(repeating: " tock", count: length) + " round \(round)") }
        }
        let (miner, patterns) = Self.mine(messages, capacity: 5)
        #expect(patterns.count == 5)
        #expect(miner.overflowCount == 30)
        #expect(patterns.reduce(0) { $0 + $1.count } + miner.overflowCount == messages.count)
    }

    @Test func compactionAtTheCapMergesAVaryingWordInsteadOfOverflowing() {
        let messages = (0..<200).map { "login of user u\(String(UnicodeScalar(UInt8(97 + $0 % 26))))x\(String(UnicodeScalar(UInt8(97 + $0 / 26))))" }
        let (miner, patterns) = Self.mine(messages, capacity: 20)
        #expect(miner.compactions >= 1)
        #expect(miner.overflowCount == 0)
        #expect(patterns.map(\.text) == ["login of user <*>"])
    }

    @Test func theMatcherGivesEveryMessageThePatternThatHoldsIt() {
        let messages = Self.messages(seed: 11, count: 3000)
        let (_, patterns) = Self.mine(messages)
        var matcher = PatternMatcher(patterns)
        var counts = [Int](repeating: 0, count: patterns.count)
        for message in messages {
            let index = matcher.match(message)
            #expect(index != nil)
            if let index { counts[index] += 1 }
        }
        #expect(counts == patterns.map(\.count))
    }
}
