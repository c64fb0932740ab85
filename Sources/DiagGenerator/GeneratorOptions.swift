import DiagModel

/// What `diag generate` makes: how many records, from which seed, starting when, how dense.
public struct GeneratorOptions: Sendable, Hashable {
    /// How many records to make.
    public var count: Int
    /// Same seed, same records, byte for byte.
    public var seed: UInt64
    /// Nanoseconds since the epoch of the first record; default 2026-11-29 09:40:00 UTC so that a
    /// seed alone fixes the output.
    public var start: Int64
    /// Records per second on average; gaps between records vary around `1 / rate`.
    public var ratePerSecond: Double

    public static let defaultStart: Int64 = 1_795_945_200_000_000_000

    public init(count: Int, seed: UInt64 = 1, start: Int64 = defaultStart, ratePerSecond: Double = 1000) {
        self.count = count
        self.seed = seed
        self.start = start
        self.ratePerSecond = ratePerSecond
    }
}
