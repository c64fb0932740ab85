import DiagModel
import DiagPatterns
import Testing

@Suite struct DiffTests {
    static func diff(base: [(String, MessageType)], target: [(String, MessageType)]) -> PatternDiff {
        var miner = PatternMiner<PatternDiff.Sides>()
        for (index, (message, level)) in base.enumerated() {
            let record = LogRecord(timestamp: Int64(index) * 1_000_000_000, messageType: level, process: "p", eventMessage: message)
            miner.add(message) { $0.base.count(record) }
        }
        for (index, (message, level)) in target.enumerated() {
            let record = LogRecord(timestamp: Int64(index) * 1_000_000_000, messageType: level, process: "p", eventMessage: message)
            miner.add(message) { $0.target.count(record) }
        }
        return PatternDiff(miner.finish())
    }

    static func repeated(_ message: String, _ count: Int, _ level: MessageType = .default) -> [(String, MessageType)] {
        (0..<count).map { ("\(message) \($0)", level) }
    }

    @Test func newErrorPatternsComeFirstThenOtherNewOnes() {
        let base = Self.repeated("upload done", 50)
        let target = Self.repeated("upload done", 50) + Self.repeated("cache warmed", 20) + Self.repeated("upload throttled", 3, .error)
        let diff = Self.diff(base: base, target: target)
        #expect(diff.new.map(\.pattern) == ["upload throttled <*>", "cache warmed <*>"])
        #expect(diff.newProblems.count == 1)
        #expect(diff.gone.isEmpty)
        #expect(diff.changed.isEmpty)
    }

    @Test func oneAgainstTwoIsNotAChange() {
        let diff = Self.diff(base: Self.repeated("steady", 100) + Self.repeated("rare", 1),
                             target: Self.repeated("steady", 100) + Self.repeated("rare", 2))
        #expect(diff.changed.isEmpty)
    }

    @Test func aRateThatChangedBeyondChanceIsChangedAndNormalisedByVolume() {
        // Same share on both sides though TARGET has twice the records: no change.
        let same = Self.diff(base: Self.repeated("a", 100) + Self.repeated("b", 100),
                             target: Self.repeated("a", 200) + Self.repeated("b", 200))
        #expect(same.changed.isEmpty)
        let changed = Self.diff(base: Self.repeated("a", 200) + Self.repeated("b", 20),
                                target: Self.repeated("a", 200) + Self.repeated("b", 120))
        #expect(changed.changed.map(\.pattern) == ["b <*>"])
        #expect((changed.changed.first?.z ?? 0) > 3.29)
    }

    @Test func gonePatternsAreThoseOnlyInBase() {
        let diff = Self.diff(base: Self.repeated("old path", 10) + Self.repeated("kept", 10), target: Self.repeated("kept", 10))
        #expect(diff.gone.map(\.pattern) == ["old path <*>"])
        #expect(diff.new.isEmpty)
    }
}
