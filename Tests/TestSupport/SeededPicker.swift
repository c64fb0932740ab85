import DiagGenerator

/// Deterministic choices for test records, over DiagGenerator's SplitMix64: the same records on
/// every run. `int` is the plain remainder, as the test fixtures were written against.
public struct SeededPicker {
    private var generator: SplitMix64

    public init(state: UInt64) { generator = SplitMix64(seed: state) }

    public mutating func next() -> UInt64 { generator.next() }
    public mutating func int(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    public mutating func pick<T>(_ values: [T]) -> T { values[int(values.count)] }
    public mutating func maybe<T>(_ value: T, nilOneIn odds: Int = 5) -> T? { int(odds) == 0 ? nil : value }
}
