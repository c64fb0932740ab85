/// SplitMix64 (Steele, Lea, Flood 2014): a tiny, fast generator whose sequence depends on the
/// seed alone, on every platform and Swift version, unlike `SystemRandomNumberGenerator`.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0..<bound` (Lemire's multiply-shift; the tiny bias is irrelevant here).
    public mutating func below(_ bound: Int) -> Int {
        Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// A number in the closed range.
    public mutating func between(_ low: Int, _ high: Int) -> Int {
        low + below(high - low + 1)
    }

    /// A double in `0..<1` from the top 53 bits.
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// True with the given probability.
    public mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }

    public mutating func pick<T>(_ choices: [T]) -> T {
        choices[below(choices.count)]
    }
}
